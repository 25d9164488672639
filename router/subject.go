package router

// The user in the third person, as assistants and other memory systems write about
// them: "The user lives in Lyon.", "User works at Siemens", "The user's email is ...".

// thirdPerson rewrites the third-person mentions of the user in toks into the first
// person the grammar reads: "the user lives" becomes "I live", "the user's" becomes
// "my". A mention counts only as the subject of a clause: "user" (after "the" or not)
// at the start of a sentence, or after a connector or "that", followed by a possessive
// or, after adverbs, by a verb in the third person singular. The verb's agreement is
// changed too, and so is that of a verb sharing the subject later in the sentence
// ("... and works at Naver"). "I'm the user" and "the user manual" are left alone.
// Values are cut from the message by offset, so they keep their spelling. Linear in
// len(toks).
func thirdPerson(toks []token) []token {
	any := false
	for _, t := range toks {
		any = any || t.w == "user"
	}
	if !any {
		return toks
	}
	out := make([]token, 0, len(toks))
	third := false // a user subject was rewritten in this sentence
	told := false  // ... in each sentence since it was first
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.kind == tPunct && (isTerminal(t.w) || t.w == "\n") {
			told = told && third
			third = false
		}
		if start := len(out) == 0 || out[len(out)-1].kind == tPunct && (isTerminal(out[len(out)-1].w) || out[len(out)-1].w == "\n"); start && t.kind == tWord {
			// "The user is a nurse. She lives in Lyon.": a pronoun opening the next
			// sentence goes on about the user.
			verbs := thirdVerbs
			if t.w == "they" {
				verbs = theyVerbs
			}
			k := i + 1
			for k < len(toks) && adverbs[toks[k].w] {
				k++
			}
			if told && (t.w == "he" || t.w == "she" || t.w == "they") && k < len(toks) && verbs[toks[k].w] != "" {
				t.w = "i"
				out = append(out, t)
				third = true
				for i++; i < k; i++ {
					out = append(out, toks[i])
				}
				v := toks[k]
				v.w = verbs[v.w]
				out = append(out, v)
				continue
			}
			if t.w != "the" && t.w != "user" {
				told = false
			}
		}
		if t.kind == tWord && t.w == "user" {
			start := len(out)
			if start > 0 && out[start-1].kind == tWord && out[start-1].w == "the" {
				start--
			}
			if subjectSlot(out[:start]) {
				if t.poss {
					out = append(out[:start], token{w: "my", s: spanStart(out, start, t), e: t.e, kind: tWord})
					continue
				}
				k := i + 1
				for k < len(toks) && adverbs[toks[k].w] {
					k++
				}
				if k < len(toks) && toks[k].kind == tWord && thirdVerbs[toks[k].w] != "" {
					out = append(out[:start], token{w: "i", s: spanStart(out, start, t), e: t.e, kind: tWord})
					third, told = true, true
					continue
				}
			}
		}
		if third && t.kind == tWord && thirdVerbs[t.w] != "" && sharesSubject(out) {
			t.w = thirdVerbs[t.w]
		}
		out = append(out, t)
	}
	return out
}

// spanStart is where the mention of the user that begins at out[start] (or at t
// when nothing of it was copied yet) starts in the message.
func spanStart(out []token, start int, t token) int {
	if start < len(out) {
		return out[start].s
	}
	return t.s
}

// subjectSlot reports whether a subject may start after the tokens before: at the
// start, after punctuation, or after a word that opens a clause.
func subjectSlot(before []token) bool {
	if len(before) == 0 {
		return true
	}
	p := before[len(before)-1]
	if p.kind == tPunct {
		return p.w != "'" && p.w != "\""
	}
	return subjectOpeners[p.w]
}

// sharesSubject reports whether a verb after the tokens before shares the previous
// clause's subject: it follows "and" or "," (after adverbs), or the rewritten "I".
func sharesSubject(before []token) bool {
	k := len(before) - 1
	for k >= 0 && adverbs[before[k].w] {
		k--
	}
	return k >= 0 && (before[k].w == "and" || before[k].w == "," || before[k].w == "i" || before[k].w == "but")
}

// subjectOpeners are words after which a clause, and so its subject, may start.
var subjectOpeners = map[string]bool{
	"and": true, "but": true, "that": true, "so": true, "also": true, "btw": true,
	"fyi": true, "note": true, "remember": true, "because": true, "since": true,
}

// thirdVerbs maps the verbs of a third-person user subject to the first person; verbs
// whose form does not change map to themselves.
var thirdVerbs = map[string]string{
	"is": "am", "has": "have", "does": "do", "lives": "live", "works": "work",
	"prefers": "prefer", "wants": "want", "likes": "like", "loves": "love", "goes": "go",
	"moves": "move", "speaks": "speak", "drives": "drive", "owns": "own", "uses": "use",
	"needs": "need", "hates": "hate", "enjoys": "enjoy", "resides": "reside",
	"studies": "study", "teaches": "teach", "plays": "play", "runs": "run",
	"was": "was", "moved": "moved", "relocated": "relocated", "joined": "joined",
	"started": "started", "got": "got", "lived": "lived", "worked": "worked",
	"used": "used", "will": "will", "can": "can", "would": "would", "landed": "landed", "took": "took", "accepted": "accepted",
	"quit": "quit", "left": "left", "retired": "retired", "became": "became",
}

// theyVerbs maps the verbs after "they" standing for the user to the first person.
var theyVerbs = map[string]string{
	"are": "am", "were": "was", "have": "have", "do": "do", "live": "live", "work": "work",
	"prefer": "prefer", "want": "want", "like": "like", "love": "love", "go": "go",
	"moved": "moved", "speak": "speak", "drive": "drive", "own": "own", "use": "use",
	"need": "need", "hate": "hate", "enjoy": "enjoy", "reside": "reside", "study": "study",
	"teach": "teach", "relocated": "relocated", "joined": "joined", "started": "started",
	"got": "got", "lived": "lived", "worked": "worked", "used": "used", "will": "will",
	"can": "can", "would": "would", "recently": "recently", "just": "just",
}
