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
	in := struct {
		Phrase string   `json:"phrase"`
		Known  []string `json:"known"`
	}{clipChars(raw, 200), first200(known)}
	var out struct {
		Topic      string  `json:"topic"`
		Confidence float64 `json:"confidence"`
	}
	if err := c.ask(ctx, "topic", TeachSchema, TeachPrompt, "teacher", in, &out); err != nil {
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
	in := struct {
		Question string   `json:"question"`
		Keys     []string `json:"keys"`
	}{clipChars(question, 2000), first200(keys)}
	var p factbase.Plan
	if err := c.ask(ctx, "plan", PlanSchema, PlanPrompt, "planner", in, &p); err != nil {
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

// ask sends the system prompt of version prompt and the JSON of in as the user turn,
// asking for an answer of schema (named name), and decodes the answer into out. what
// names the input in an encoding error.
func (c *Client) ask(ctx context.Context, name string, schema *Schema, prompt, what string, in, out any) error {
	b, err := json.Marshal(in)
	if err != nil {
		return factbase.Errorf(factbase.EINTERNAL, "llm: encode the %s input: %v", what, err)
	}
	_, err = c.CallJSON(ctx, JSONRequest{Name: name, Schema: schema, Messages: []Message{
		{Role: "system", Content: mustPrompt(prompt)},
		{Role: "user", Content: string(b)},
	}}, out)
	return err
}

// first200 returns a copy of the first 200 of list, never nil: the most a teacher or
// planner input lists.
func first200(list []string) []string {
	return append([]string{}, list[:min(len(list), 200)]...)
}
