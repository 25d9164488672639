package mcp

import (
	"time"

	"github.com/factbase/factbase"
)

// Fact is a stored fact as tools return it.
type Fact struct {
	ID           string  `json:"id" jsonschema:"The fact's id, for get_fact, fact_history, forget and erase_fact."`
	Subject      string  `json:"subject" jsonschema:"Whom the fact is about: \"user\" for the user themself, or \"entity:<id>\" for a person they mentioned."`
	Key          string  `json:"key" jsonschema:"What the fact is, e.g. \"contact.email\" or \"favorites.movie\" (a ranked list)."`
	Value        string  `json:"value" jsonschema:"The value as it was said."`
	Rank         int     `json:"rank,omitempty" jsonschema:"The position in a ranked list (1 is the favorite); absent for other keys."`
	Cardinality  string  `json:"cardinality" jsonschema:"How the key holds values: one (latest wins), many (a set) or ranked (an ordered list)."`
	Text         string  `json:"text,omitempty" jsonschema:"The fact as a sentence, when one was recorded."`
	Type         string  `json:"type,omitempty" jsonschema:"The kind of fact: contact, work, preference, schedule, health, ..."`
	Category     string  `json:"category" jsonschema:"The fact sheet category: core, technical, project or transient."`
	Confidence   float64 `json:"confidence" jsonschema:"How sure the source was, 0 to 1."`
	Sensitivity  string  `json:"sensitivity,omitempty" jsonschema:"How private the fact is: low, medium or high."`
	Current      bool    `json:"current" jsonschema:"True while the fact holds; false once superseded, retracted or removed."`
	RecordedAt   string  `json:"recorded_at" jsonschema:"When Factbase learned the fact (RFC 3339)."`
	ValidFrom    string  `json:"valid_from" jsonschema:"When the fact started to hold (RFC 3339)."`
	ValidTo      string  `json:"valid_to,omitempty" jsonschema:"When the fact stopped holding (RFC 3339); absent while current."`
	Supersedes   string  `json:"supersedes,omitempty" jsonschema:"The id of the earlier value this fact replaced."`
	SupersededBy string  `json:"superseded_by,omitempty" jsonschema:"The id of the later value that replaced this fact."`
	Source       string  `json:"source" jsonschema:"Where the fact came from: message, transcript, episode or manual, with an id after a colon when known."`
}

func timeText(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}

func factOut(f factbase.Fact) Fact {
	out := Fact{ID: f.ID, Subject: f.Subject, Key: f.Key, Value: f.Value, Rank: f.Rank,
		Cardinality: string(f.Cardinality), Text: f.Text, Type: f.Type, Category: string(f.Category),
		Confidence: f.Confidence, Sensitivity: string(f.Sensitivity), Current: f.Current,
		RecordedAt: timeText(f.RecordedAt), ValidFrom: timeText(f.ValidFrom), Supersedes: f.Supersedes,
		SupersededBy: f.SupersededBy, Source: f.Source.Kind}
	if f.ValidTo != nil {
		out.ValidTo = timeText(*f.ValidTo)
	}
	if f.Source.ID != "" {
		out.Source += ":" + f.Source.ID
	}
	return out
}

func factsOut(fs []factbase.Fact) []Fact {
	out := make([]Fact, len(fs))
	for i, f := range fs {
		out[i] = factOut(f)
	}
	return out
}

// Duplicate is a write that was not stored because the value was already there.
type Duplicate struct {
	Key    string `json:"key" jsonschema:"The key written to."`
	Value  string `json:"value" jsonschema:"The value that was already present."`
	Rank   int    `json:"rank,omitempty" jsonschema:"Its existing rank, for ranked lists."`
	FactID string `json:"fact_id" jsonschema:"The id of the existing fact."`
}

// Mutation is a change of rank in a ranked list.
type Mutation struct {
	Key     string `json:"key" jsonschema:"The ranked list."`
	Value   string `json:"value" jsonschema:"The member that moved."`
	Action  string `json:"action" jsonschema:"What happened: MOVE, INSERT, NOOP, APPEND or REMOVE."`
	From    int    `json:"from" jsonschema:"Its rank before (0: it was not in the list)."`
	To      int    `json:"to" jsonschema:"Its rank after (0: it left the list)."`
	Shifted int    `json:"shifted" jsonschema:"How many other members' ranks changed."`
}

// Counts are what a write did, counted from what the store did.
type Counts struct {
	Stored    int `json:"stored" jsonschema:"New facts written."`
	Updated   int `json:"updated" jsonschema:"Earlier values superseded by a new one (kept in history)."`
	Retracted int `json:"retracted" jsonschema:"Facts whose validity was ended (kept in history)."`
	Deleted   int `json:"deleted" jsonschema:"Fact rows erased, history included."`
}

func countsOf(r factbase.Result) Counts {
	return Counts{Stored: r.Stored, Updated: r.Updated, Retracted: r.Retracted, Deleted: r.Deleted}
}

func duplicatesOut(ds []factbase.Duplicate) []Duplicate {
	out := make([]Duplicate, len(ds))
	for i, d := range ds {
		out[i] = Duplicate{Key: d.Key, Value: d.Value, Rank: d.Rank, FactID: d.FactID}
	}
	return out
}

func mutationsOut(ms []factbase.Mutation) []Mutation {
	out := make([]Mutation, len(ms))
	for i, m := range ms {
		out[i] = Mutation{Key: m.Key, Value: m.Value, Action: string(m.Action), From: m.From, To: m.To, Shifted: m.Shifted}
	}
	return out
}

// Episode is a narrative record as search returns it.
type Episode struct {
	ID         string   `json:"id" jsonschema:"The episode's id."`
	Content    string   `json:"content" jsonschema:"What happened, as written."`
	Tags       []string `json:"tags" jsonschema:"Its tags, lower case."`
	Importance float64  `json:"importance" jsonschema:"How important it is, 0 to 1."`
	CreatedAt  string   `json:"created_at" jsonschema:"When it happened (RFC 3339)."`
}

func episodeOut(ep factbase.Episode) Episode {
	tags := ep.Tags
	if tags == nil {
		tags = []string{}
	}
	return Episode{ID: ep.ID, Content: ep.Content, Tags: tags, Importance: ep.Importance, CreatedAt: timeText(ep.CreatedAt)}
}

// parseTime reads an optional RFC 3339 time argument.
func parseTime(name, s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, factbase.Errorf(factbase.EINVALID, "%s %q is not an RFC 3339 time (e.g. 2026-01-02T15:04:05Z)", name, s)
	}
	return t, nil
}
