package embed

import (
	"unicode"
	"unicode/utf8"
)

// Tokens splits text into the lower-case words that GloVe and Hash embed.
//
// A token is a maximal run of letters, digits and apostrophes (' and the typographic
// ’, both returned as '), lower-cased, with leading and trailing apostrophes removed;
// everything else separates tokens. So "Martin's e-mail: Foo@Bar.com!" gives
// "martin's", "e", "mail", "foo", "bar", "com". Clitics stay attached here; the GloVe
// embedder splits them off when it looks a word up.
func Tokens(text string) []string {
	var out []string
	var buf []byte
	eachToken(text, &buf, func(tok []byte) { out = append(out, string(tok)) })
	return out
}

// eachToken calls f with each token of text, as Tokens defines them. The slice passed
// to f is only valid during the call; buf is scratch space reused between calls.
func eachToken(text string, buf *[]byte, f func(tok []byte)) {
	b := (*buf)[:0]
	flush := func() {
		// Trim apostrophes at both ends.
		i, j := 0, len(b)
		for i < j && b[i] == '\'' {
			i++
		}
		for j > i && b[j-1] == '\'' {
			j--
		}
		if i < j {
			f(b[i:j])
		}
		b = b[:0]
	}
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case 'a' <= c && c <= 'z', '0' <= c && c <= '9', c == '\'':
				b = append(b, c)
			case 'A' <= c && c <= 'Z':
				b = append(b, c+'a'-'A')
			default:
				flush()
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		i += size
		switch {
		case r == '’' || r == 'ʼ':
			b = append(b, '\'')
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			b = utf8.AppendRune(b, unicode.ToLower(r))
		default:
			flush()
		}
	}
	flush()
	*buf = b
}

// stopWords are dropped before embedding with GloVe: English function words that carry
// little meaning of their own (articles, pronouns, auxiliaries, prepositions,
// conjunctions, question words) and the clitic fragments GloVe's tokenizer makes ('s,
// n't, 'll, ...). Negations ("not", "no", "never") are stop words too: an averaged
// word vector cannot represent negation anyway, and keeping them only adds noise.
var stopWords = func() map[string]bool {
	m := make(map[string]bool)
	for _, w := range []string{
		// articles and determiners
		"a", "an", "the", "this", "that", "these", "those", "some", "any", "each",
		"every", "either", "neither", "such", "own", "same", "other", "another",
		"all", "both", "few", "more", "most", "much", "many", "several",
		// pronouns
		"i", "me", "my", "mine", "myself", "we", "us", "our", "ours", "ourselves",
		"you", "your", "yours", "yourself", "yourselves", "he", "him", "his",
		"himself", "she", "her", "hers", "herself", "it", "its", "itself", "they",
		"them", "their", "theirs", "themselves", "one", "ones", "someone",
		"something", "anyone", "anything", "everyone", "everything",
		// question words and relatives
		"what", "which", "who", "whom", "whose", "when", "where", "why", "how",
		"whether", "whatever", "whichever",
		// auxiliaries and modals
		"am", "is", "are", "was", "were", "be", "been", "being", "have", "has",
		"had", "having", "do", "does", "did", "doing", "done", "will", "would",
		"shall", "should", "can", "could", "may", "might", "must", "ought",
		// prepositions and particles
		"about", "above", "across", "after", "against", "along", "among", "around",
		"at", "before", "behind", "below", "beneath", "beside", "between", "beyond",
		"by", "down", "during", "for", "from", "in", "inside", "into", "near", "of",
		"off", "on", "onto", "out", "outside", "over", "per", "since", "through",
		"throughout", "till", "to", "toward", "towards", "under", "until", "up",
		"upon", "via", "with", "within", "without",
		// conjunctions and connectives
		"and", "or", "nor", "but", "if", "then", "else", "than", "so", "because",
		"as", "while", "though", "although", "unless", "also", "too", "just",
		"only", "even", "still", "yet", "very", "really", "quite", "rather",
		// adverbs of place, time and degree with little content
		"here", "there", "now", "again", "once", "ever", "already", "soon",
		"further", "however", "thus", "therefore",
		// negation
		"not", "no", "never", "none", "nothing", "nobody",
		// clitics and contraction fragments
		"'s", "s", "n't", "t", "'ll", "ll", "'re", "re", "'ve", "ve", "'d", "d",
		"'m", "m", "o",
		// common contractions as whole tokens
		"i'm", "i've", "i'll", "i'd", "you're", "you've", "you'll", "you'd",
		"he's", "she's", "it's", "we're", "we've", "we'll", "we'd", "they're",
		"they've", "they'll", "they'd", "that's", "there's", "what's", "who's",
		"let's", "don't", "doesn't", "didn't", "isn't", "aren't", "wasn't",
		"weren't", "haven't", "hasn't", "hadn't", "won't", "wouldn't", "can't",
		"cannot", "couldn't", "shouldn't", "mustn't",
	} {
		m[w] = true
	}
	return m
}()

// isStopWord reports whether tok is in stopWords, without allocating.
func isStopWord(tok []byte) bool { return stopWords[string(tok)] }
