// Package eval measures Factbase's retrieval on real conversations: it reads the
// LoCoMo format (Maharana et al., ACL 2024; data CC BY-NC 4.0, read from where the
// user keeps it, never bundled), feeds every turn to a System the way a user's data
// would be fed, asks every question, and scores recall@k against the evidence turns.
//
// The scoring is the official one: recall = |evidence ∩ retrieved| / |evidence| per
// question, averaged per category. Evidence ids are cleaned as the data's README
// describes: "D8:6; D9:17" is split, "D30:05" becomes "D30:5", ids that name no turn
// are dropped and counted, and questions left with no evidence are skipped and counted.
package eval

import (
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Conversation is one LoCoMo sample.
type Conversation struct {
	ID       string
	Speakers [2]string
	Sessions []Session
	QA       []QA
}

// Session is one dated session of a conversation.
type Session struct {
	N     int
	Time  time.Time // parsed from the session's date_time
	Raw   string    // the date_time as written
	Turns []Turn
}

// Turn is one utterance.
type Turn struct {
	Speaker string
	DiaID   string // "D<session>:<turn>"
	Text    string // with "[shares image: <caption>]" appended for a shared image
}

// QA is one question with its evidence.
type QA struct {
	Question string
	Answer   string
	Category int
	Evidence []string // cleaned
	Raw      []string // as written
}

type rawTurn struct {
	Speaker     string `json:"speaker"`
	DiaID       string `json:"dia_id"`
	Text        string `json:"text"`
	BlipCaption string `json:"blip_caption"`
}

type rawQA struct {
	Question string          `json:"question"`
	Answer   json.RawMessage `json:"answer"`
	Evidence []string        `json:"evidence"`
	Category int             `json:"category"`
}

type rawConv struct {
	SampleID     string                     `json:"sample_id"`
	Conversation map[string]json.RawMessage `json:"conversation"`
	QA           []rawQA                    `json:"qa"`
}

var sessionKey = regexp.MustCompile(`^session_(\d+)$`)

// Load reads a LoCoMo JSON array of conversations.
func Load(r io.Reader) ([]Conversation, error) {
	var raw []rawConv
	dec := json.NewDecoder(r)
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("eval: the LoCoMo file is not a JSON array of conversations: %w", err)
	}
	out := make([]Conversation, 0, len(raw))
	for i, rc := range raw {
		c, err := convert(rc)
		if err != nil {
			return nil, fmt.Errorf("eval: conversation %d (%s): %w", i, rc.SampleID, err)
		}
		out = append(out, c)
	}
	return out, nil
}

func convert(rc rawConv) (Conversation, error) {
	c := Conversation{ID: rc.SampleID}
	str := func(k string) string {
		var s string
		_ = json.Unmarshal(rc.Conversation[k], &s)
		return s
	}
	c.Speakers = [2]string{str("speaker_a"), str("speaker_b")}
	for k, v := range rc.Conversation {
		m := sessionKey.FindStringSubmatch(k)
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		var turns []rawTurn
		if err := json.Unmarshal(v, &turns); err != nil {
			return c, fmt.Errorf("%s: %w", k, err)
		}
		s := Session{N: n, Raw: str(k + "_date_time")}
		t, err := ParseSessionTime(s.Raw)
		if err != nil {
			return c, fmt.Errorf("%s: %w", k, err)
		}
		s.Time = t
		for _, rt := range turns {
			text := rt.Text
			if rt.BlipCaption != "" {
				text = strings.TrimSpace(text + " [shares image: " + rt.BlipCaption + "]")
			}
			s.Turns = append(s.Turns, Turn{Speaker: rt.Speaker, DiaID: normID(rt.DiaID), Text: text})
		}
		c.Sessions = append(c.Sessions, s)
	}
	sort.Slice(c.Sessions, func(i, j int) bool { return c.Sessions[i].N < c.Sessions[j].N })
	for _, q := range rc.QA {
		a := strings.Trim(string(q.Answer), `"`)
		c.QA = append(c.QA, QA{Question: q.Question, Answer: a, Category: q.Category, Raw: q.Evidence})
	}
	return c, nil
}

// ParseSessionTime parses LoCoMo's "1:56 pm on 8 May, 2023".
func ParseSessionTime(s string) (time.Time, error) {
	t, err := time.Parse("3:04 pm on 2 January, 2006", strings.ToLower(strings.TrimSpace(s)))
	if err != nil {
		// Month names are capitalised in the data; time.Parse wants them so.
		t, err = time.Parse("3:04 pm on 2 January, 2006", fixCase(strings.TrimSpace(s)))
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("session date %q: %w", s, err)
	}
	return t.UTC(), nil
}

func fixCase(s string) string {
	parts := strings.Fields(s)
	for i, p := range parts {
		if i == 1 {
			parts[i] = strings.ToLower(p)
		}
	}
	return strings.Join(parts, " ")
}

var idRe = regexp.MustCompile(`D(\d+):(\d+)`)

// normID normalises "D30:05" to "D30:5"; anything else is returned unchanged.
func normID(id string) string {
	m := idRe.FindStringSubmatch(strings.TrimSpace(id))
	if m == nil {
		return strings.TrimSpace(id)
	}
	a, _ := strconv.Atoi(m[1])
	b, _ := strconv.Atoi(m[2])
	return fmt.Sprintf("D%d:%d", a, b)
}

// CleanEvidence splits, normalises and checks the evidence ids of every question
// against the turns that exist. It returns how many ids were dropped.
func CleanEvidence(c *Conversation) (dropped int) {
	exists := map[string]bool{}
	for _, s := range c.Sessions {
		for _, t := range s.Turns {
			exists[t.DiaID] = true
		}
	}
	for i := range c.QA {
		q := &c.QA[i]
		q.Evidence = nil
		seen := map[string]bool{}
		for _, raw := range q.Raw {
			fields := strings.FieldsFunc(raw, func(r rune) bool { return r == ';' || r == ',' || r == ' ' })
			if len(fields) == 0 {
				dropped++
			}
			for _, f := range fields {
				id := normID(f)
				if !exists[id] {
					dropped++
					continue
				}
				if !seen[id] {
					seen[id] = true
					q.Evidence = append(q.Evidence, id)
				}
			}
		}
	}
	return dropped
}

// Recall returns |evidence ∩ retrieved[:k]| / |evidence|.
func Recall(evidence, retrieved []string, k int) float64 {
	if len(evidence) == 0 {
		return 1
	}
	if k < len(retrieved) {
		retrieved = retrieved[:k]
	}
	got := map[string]bool{}
	for _, r := range retrieved {
		got[r] = true
	}
	hit := 0
	for _, e := range evidence {
		if got[e] {
			hit++
		}
	}
	return float64(hit) / float64(len(evidence))
}
