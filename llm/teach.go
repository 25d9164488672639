package llm

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/factbase/factbase"
)

// TeachSchema is the schema of a teacher's answer.
var TeachSchema = &Schema{Type: "object", Properties: []Property{
	{"topic", str("the canonical topic, lower case, at most four words", 128)},
	{"confidence", &Schema{Type: "number", Description: "0 to 1", Minimum: ptr(0), Maximum: ptr(1)}},
}}

// Teach asks the model for the canonical topic of a favorites phrase, given the
// topics already known: the Client is a factbase.Teacher, and its Teach a
// canon.TeachFunc. The answer is validated like every other; canon still normalises
// the topic and checks it before use.
func (c *Client) Teach(ctx context.Context, raw string, known []string) (string, float64, error) {
	if len(known) > 200 {
		known = known[:200]
	}
	in, err := json.Marshal(struct {
		Phrase string   `json:"phrase"`
		Known  []string `json:"known"`
	}{clipChars(raw, 200), append([]string{}, known...)})
	if err != nil {
		return "", 0, factbase.Errorf(factbase.EINTERNAL, "llm: encode the teacher input: %v", err)
	}
	var out struct {
		Topic      string  `json:"topic"`
		Confidence float64 `json:"confidence"`
	}
	if _, err := c.CallJSON(ctx, JSONRequest{Name: "topic", Schema: TeachSchema, Messages: []Message{
		{Role: "system", Content: mustPrompt(TeachPrompt)},
		{Role: "user", Content: string(in)},
	}}, &out); err != nil {
		return "", 0, err
	}
	return strings.TrimSpace(out.Topic), out.Confidence, nil
}

// PlanSchema is the schema of a planner's answer (a factbase.Plan).
var PlanSchema = &Schema{Type: "object", Properties: []Property{
	{"kind", enum("what the question asks for", factbase.PlanList, factbase.PlanRank, factbase.PlanFact, factbase.PlanNone)},
	{"key", str(`the key asked about, or ""`, 200)},
	{"rank", &Schema{Type: "integer", Description: "the position for rank, else 0", Minimum: ptr(0), Maximum: ptr(1000)}},
}}

// Plan asks the model what a question no rule understood asks for, given the keys
// the user has facts under (at most 200 are sent). The answer is validated against
// PlanSchema and checked for consistency: a rank plan needs a rank of at least 1, a
// list or fact plan a key; otherwise it is invalid output (factbase.ModelSchema).
func (c *Client) Plan(ctx context.Context, question string, keys []string) (factbase.Plan, error) {
	if strings.TrimSpace(question) == "" {
		return factbase.Plan{}, factbase.Errorf(factbase.EINVALID, "llm: the question is empty")
	}
	if len(keys) > 200 {
		keys = keys[:200]
	}
	in, err := json.Marshal(struct {
		Question string   `json:"question"`
		Keys     []string `json:"keys"`
	}{clipChars(question, 2000), append([]string{}, keys...)})
	if err != nil {
		return factbase.Plan{}, factbase.Errorf(factbase.EINTERNAL, "llm: encode the planner input: %v", err)
	}
	var p factbase.Plan
	if _, err := c.CallJSON(ctx, JSONRequest{Name: "plan", Schema: PlanSchema, Messages: []Message{
		{Role: "system", Content: mustPrompt(PlanPrompt)},
		{Role: "user", Content: string(in)},
	}}, &p); err != nil {
		return factbase.Plan{}, err
	}
	switch {
	case p.Kind == factbase.PlanRank && p.Rank < 1,
		p.Kind != factbase.PlanNone && strings.TrimSpace(p.Key) == "":
		return factbase.Plan{}, newError(factbase.ModelSchema, nil, "the model's plan is inconsistent: kind %q, key %q, rank %d", p.Kind, clip(p.Key, 40), p.Rank)
	case p.Kind == factbase.PlanNone:
		p.Key, p.Rank = "", 0
	case p.Kind != factbase.PlanRank:
		p.Rank = 0
	}
	return p, nil
}
