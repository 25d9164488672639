package llm

import (
	"context"
	"embed"
	"encoding/json"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/factbase/factbase"
)

//go:embed prompts/*.txt
var prompts embed.FS

// The prompt versions. A prompt file is never edited once released: a change is a new
// file and a new version, so that a job record says exactly which prompt it used.
const (
	ExtractPrompt = "extract_v1"
	TeachPrompt   = "teach_v1"
	PlanPrompt    = "plan_v1"
)

// Prompt returns the text of the named prompt version (ExtractPrompt, ...).
func Prompt(name string) (string, error) {
	b, err := prompts.ReadFile("prompts/" + name + ".txt")
	if err != nil {
		return "", factbase.Errorf(factbase.ENOTFOUND, "llm: no prompt %q", name)
	}
	return string(b), nil
}

func mustPrompt(name string) string {
	s, err := Prompt(name)
	if err != nil {
		return "" // prompts are embedded; TestPrompts proves every version exists
	}
	return s
}

// Limits of what Extract sends and accepts. Of the known entities and facts it sends
// the first factbase.MaxKnownEntities and factbase.MaxKnownFacts.
const (
	MaxMessage        = 16 << 10 // bytes of the user's message
	maxPromptValue    = 120      // characters of each value, name and alias sent
	maxPromptAliases  = 5
	MaxProposedFacts  = 20 // facts one answer may propose
	MaxProposedEntity = 10 // entities one answer may name
	MaxTopics         = 5
)

// FactTypes are the fact types a model may propose.
var FactTypes = []string{"schedule", "travel", "health", "allergy", "medical", "relationship", "work",
	"hobby", "preference", "contact", "identity", "home", "education", "finance", "other"}

// EntityRoles are the roles a model may give an entity.
var EntityRoles = []string{"partner", "child", "parent", "sibling", "friend", "colleague",
	"pet", "service_provider", "other"}

func str(desc string, max int) *Schema {
	return &Schema{Type: "string", Description: desc, MaxLength: max}
}

func enum(desc string, vals ...string) *Schema {
	return &Schema{Type: "string", Description: desc, Enum: vals}
}

// ExtractSchema is the schema of an extraction answer (a factbase.Extraction).
var ExtractSchema = &Schema{Type: "object", Properties: []Property{
	{"facts", &Schema{Type: "array", MaxItems: MaxProposedFacts, Description: "at most 20 facts",
		Items: &Schema{Type: "object", Properties: []Property{
			{"about", str(`"user" or an entity's ref`, 64)},
			{"key", str("a short dotted key in lower case, at most 64 characters", 64)},
			{"value", str("the value in the user's words, at most 500 characters", 500)},
			{"text", str("one sentence, at most 200 characters", factbase.MaxTextLen)},
			{"type", enum("the fact's type", FactTypes...)},
			{"confidence", &Schema{Type: "number", Description: "0 to 1", Minimum: ptr(0), Maximum: ptr(1)}},
			{"durability", enum("how long the fact stays true", "durable", "long", "medium", "short")},
			{"sensitivity", enum("how private the fact is", "low", "medium", "high")},
			{"temporal", str(`a time expression as said, or ""`, 100)},
			{"evidence", str("the exact words of the message stating the fact", 500)},
			{"remember_next_week", &Schema{Type: "boolean", Description: "would the user want this remembered next week?"}},
		}}}},
	{"entities", &Schema{Type: "array", MaxItems: MaxProposedEntity, Description: "at most 10 entities",
		Items: &Schema{Type: "object", Properties: []Property{
			{"ref", str(`a known entity's id, or a new ref such as "e1"`, 64)},
			{"name", str("the name as written, or \"\"", 100)},
			{"role", enum("the entity's role", EntityRoles...)},
			{"relation", str(`the relation in the user's words ("sister", "dentist"), or ""`, 60)},
			{"known_id", str(`the id of the matched known entity, or ""`, 64)},
		}}}},
	{"topics", &Schema{Type: "array", MaxItems: MaxTopics, Description: "at most five short topics",
		Items: str("a short topic", 64)}},
}}

// Extract asks the model for the facts, entities and topics of one message, with the
// known entities and current facts in the prompt (bounded by factbase.MaxKnownEntities
// and factbase.MaxKnownFacts). The answer is validated against ExtractSchema before it
// is returned; a failed call is a *factbase.ModelError. It returns EINVALID for an
// empty message or one over MaxMessage bytes, without calling the model.
func (c *Client) Extract(ctx context.Context, req factbase.ExtractRequest) (factbase.Extraction, error) {
	if strings.TrimSpace(req.Message) == "" {
		return factbase.Extraction{}, factbase.Errorf(factbase.EINVALID, "llm: the message is empty")
	}
	if len(req.Message) > MaxMessage {
		return factbase.Extraction{}, factbase.Errorf(factbase.EINVALID, "llm: the message is %d bytes, more than %d", len(req.Message), MaxMessage)
	}
	user, err := ExtractInput(req)
	if err != nil {
		return factbase.Extraction{}, err
	}
	var out factbase.Extraction
	u, err := c.CallJSON(ctx, JSONRequest{Name: "extraction", Schema: ExtractSchema, Messages: []Message{
		{Role: "system", Content: mustPrompt(ExtractPrompt)},
		{Role: "user", Content: user},
	}}, &out)
	out.Usage, out.Prompt, out.Model = u, ExtractPrompt, c.o.Model
	if err != nil {
		return out, err
	}
	return out, nil
}

// ExtractInput returns the user turn Extract sends for req: a JSON object with the
// message, today's date, and the bounded known entities and current facts. It is
// exported so that what is sent to the model can be shown and tested exactly.
func ExtractInput(req factbase.ExtractRequest) (string, error) {
	type in struct {
		Message  string                 `json:"message"`
		Today    string                 `json:"today,omitempty"`
		Entities []factbase.KnownEntity `json:"known_entities"`
		Facts    []factbase.KnownFact   `json:"current_facts"`
	}
	v := in{Message: strings.ToValidUTF8(req.Message, "\uFFFD"), Entities: []factbase.KnownEntity{}, Facts: []factbase.KnownFact{}}
	if !req.Now.IsZero() {
		v.Today = req.Now.Format(time.DateOnly)
	}
	for i, e := range req.Entities {
		if i == factbase.MaxKnownEntities {
			break
		}
		k := factbase.KnownEntity{ID: clipChars(e.ID, 64), Name: clipChars(e.Name, maxPromptValue), Role: clipChars(e.Role, 40),
			Relation: clipChars(e.Relation, 60), Aliases: []string{}}
		for j, a := range e.Aliases {
			if j == maxPromptAliases {
				break
			}
			k.Aliases = append(k.Aliases, clipChars(a, maxPromptValue))
		}
		v.Entities = append(v.Entities, k)
	}
	for i, f := range req.Facts {
		if i == factbase.MaxKnownFacts {
			break
		}
		v.Facts = append(v.Facts, factbase.KnownFact{About: clipChars(f.About, 64), Key: clipChars(f.Key, 64), Value: clipChars(f.Value, maxPromptValue)})
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "", factbase.Errorf(factbase.EINTERNAL, "llm: encode the extraction input: %v", err)
	}
	return string(b), nil
}

// clipChars shortens s to at most n characters, marking a cut with "…".
func clipChars(s string, n int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
