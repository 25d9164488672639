package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/factbase/factbase"
)

func TestPrompts(t *testing.T) {
	for _, name := range []string{ExtractPrompt, TeachPrompt, PlanPrompt} {
		p, err := Prompt(name)
		if err != nil || len(p) < 200 {
			t.Errorf("Prompt(%q) = %d bytes, %v; want the embedded file", name, len(p), err)
		}
	}
	if _, err := Prompt("extract_v0"); factbase.ErrorCode(err) != factbase.ENOTFOUND {
		t.Errorf("Prompt(extract_v0) error %v, want ENOTFOUND", err)
	}
	p, _ := Prompt(ExtractPrompt)
	for _, must := range []string{"remember_next_week", "evidence", "never instructions", "next week"} {
		if !strings.Contains(p, must) {
			t.Errorf("the extraction prompt does not mention %q", must)
		}
	}
}

func TestExtractInputBounded(t *testing.T) {
	req := factbase.ExtractRequest{Message: "My sister Maria is allergic to peanuts.", Now: time.Date(2026, 3, 4, 15, 0, 0, 0, time.UTC)}
	for i := 0; i < factbase.MaxKnownEntities+7; i++ {
		req.Entities = append(req.Entities, factbase.KnownEntity{ID: fmt.Sprintf("ent-%d", i), Name: strings.Repeat("n", 500), Role: "friend",
			Aliases: []string{"a", "b", "c", "d", "e", "f", "g"}})
	}
	for i := 0; i < factbase.MaxKnownFacts+9; i++ {
		req.Facts = append(req.Facts, factbase.KnownFact{About: "user", Key: fmt.Sprintf("k.%d", i), Value: strings.Repeat("v", 1000)})
	}
	in, err := ExtractInput(req)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Message  string                 `json:"message"`
		Today    string                 `json:"today"`
		Entities []factbase.KnownEntity `json:"known_entities"`
		Facts    []factbase.KnownFact   `json:"current_facts"`
	}
	if err := json.Unmarshal([]byte(in), &got); err != nil {
		t.Fatal(err)
	}
	if got.Message != req.Message || got.Today != "2026-03-04" {
		t.Errorf("message %q today %q", got.Message, got.Today)
	}
	if len(got.Entities) != factbase.MaxKnownEntities || len(got.Facts) != factbase.MaxKnownFacts {
		t.Errorf("%d entities and %d facts sent, want %d and %d", len(got.Entities), len(got.Facts), factbase.MaxKnownEntities, factbase.MaxKnownFacts)
	}
	if n := len([]rune(got.Entities[0].Name)); n != maxPromptValue || len(got.Entities[0].Aliases) != maxPromptAliases {
		t.Errorf("entity name %d chars, %d aliases; want %d and %d", n, len(got.Entities[0].Aliases), maxPromptValue, maxPromptAliases)
	}
	if n := len([]rune(got.Facts[0].Value)); n != maxPromptValue {
		t.Errorf("fact value %d chars, want %d", n, maxPromptValue)
	}
	if len(in) > 40<<10 {
		t.Errorf("input is %d bytes for a short message; the bound is not working", len(in))
	}
}

const validExtraction = `{"facts":[{"about":"e1","key":"health.allergies","value":"peanuts","text":"Maria is allergic to peanuts",
"type":"allergy","confidence":0.95,"durability":"durable","sensitivity":"high","temporal":"","evidence":"Maria is allergic to peanuts",
"remember_next_week":true}],"entities":[{"ref":"e1","name":"Maria","role":"sibling","relation":"sister","known_id":""}],"topics":["allergies"]}`

func TestExtract(t *testing.T) {
	f := newFake(t, "", content(validExtraction))
	c, _ := newClient(t, f, Options{})
	req := factbase.ExtractRequest{Message: "My sister Maria is allergic to peanuts.", Facts: []factbase.KnownFact{{About: "user", Key: "person.name", Value: "Ann"}}}
	x, err := c.Extract(context.Background(), req)
	if err != nil {
		t.Fatalf("Extract: %v", err)
	}
	if len(x.Facts) != 1 || x.Facts[0].Value != "peanuts" || x.Facts[0].About != "e1" || len(x.Entities) != 1 ||
		x.Entities[0].Name != "Maria" || strings.Join(x.Topics, ",") != "allergies" {
		t.Errorf("Extract = %+v", x)
	}
	if x.Usage.PromptTokens != 10 || x.Prompt != ExtractPrompt || x.Model != "test-model" {
		t.Errorf("usage %+v prompt %q model %q", x.Usage, x.Prompt, x.Model)
	}
	r := f.requests()[0]
	sys, _ := Prompt(ExtractPrompt)
	want, _ := ExtractInput(req)
	if len(r.Messages) != 2 || r.Messages[0].Role != "system" || r.Messages[0].Content != sys ||
		r.Messages[1].Role != "user" || r.Messages[1].Content != want {
		t.Errorf("messages sent = %+v, want the prompt file and ExtractInput", r.Messages)
	}
	if r.ResponseFormat.JSONSchema == nil || r.ResponseFormat.JSONSchema.Name != "extraction" {
		t.Errorf("response format %+v", r.ResponseFormat)
	}
}

func TestExtractRefusesBadMessages(t *testing.T) {
	f := newFake(t, "", content(validExtraction))
	c, _ := newClient(t, f, Options{})
	for _, m := range []string{"", "  \n", strings.Repeat("x", MaxMessage+1)} {
		if _, err := c.Extract(context.Background(), factbase.ExtractRequest{Message: m}); factbase.ErrorCode(err) != factbase.EINVALID {
			t.Errorf("Extract(%d bytes) error %v, want EINVALID", len(m), err)
		}
	}
	if n := len(f.requests()); n != 0 {
		t.Errorf("%d requests for refused messages, want 0", n)
	}
}

func TestExtractSchemaLimits(t *testing.T) {
	fact := `{"about":"user","key":"k.a","value":"v","text":"t","type":"other","confidence":0.5,"durability":"short","sensitivity":"low","temporal":"","evidence":"v","remember_next_week":true}`
	many := "[" + strings.TrimSuffix(strings.Repeat(fact+",", MaxProposedFacts+1), ",") + "]"
	cases := []struct {
		name, doc string
		ok        bool
	}{
		{name: "empty arrays", doc: `{"facts":[],"entities":[],"topics":[]}`, ok: true},
		{name: "one fact", doc: `{"facts":[` + fact + `],"entities":[],"topics":[]}`, ok: true},
		{name: "too many facts", doc: `{"facts":` + many + `,"entities":[],"topics":[]}`},
		{name: "bad type", doc: `{"facts":[` + strings.Replace(fact, `"other"`, `"admin"`, 1) + `],"entities":[],"topics":[]}`},
		{name: "confidence 2", doc: `{"facts":[` + strings.Replace(fact, `0.5`, `2`, 1) + `],"entities":[],"topics":[]}`},
		{name: "text too long", doc: `{"facts":[` + strings.Replace(fact, `"text":"t"`, `"text":"`+strings.Repeat("t", 201)+`"`, 1) + `],"entities":[],"topics":[]}`},
		{name: "bad role", doc: `{"facts":[],"entities":[{"ref":"e1","name":"x","role":"boss","relation":"","known_id":""}],"topics":[]}`},
		{name: "topics not strings", doc: `{"facts":[],"entities":[],"topics":[1]}`},
		{name: "ops smuggled in", doc: `{"facts":[],"entities":[],"topics":[],"delete":["*"]}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var x factbase.Extraction
			err := decodeInto([]byte(tc.doc), ExtractSchema, &x)
			if (err == nil) != tc.ok {
				t.Errorf("decode error %v, want ok %v", err, tc.ok)
			}
		})
	}
}

func TestTeach(t *testing.T) {
	f := newFake(t, "", content(`{"topic":"crypto currency","confidence":0.9}`))
	c, _ := newClient(t, f, Options{})
	topic, conf, err := c.Teach(context.Background(), "crypto coins", []string{"crypto currency", "movie"})
	if err != nil || topic != "crypto currency" || conf != 0.9 {
		t.Fatalf("Teach = %q, %v, %v", topic, conf, err)
	}
	if !strings.Contains(f.requests()[0].Messages[1].Content, `"phrase":"crypto coins"`) {
		t.Errorf("teacher input %q", f.requests()[0].Messages[1].Content)
	}
	f2 := newFake(t, "", content(`{"topic":"x","confidence":1.5}`))
	c2, _ := newClient(t, f2, Options{})
	if _, _, err := c2.Teach(context.Background(), "x", nil); factbase.ModelErrorKindOf(err) != factbase.ModelSchema {
		t.Errorf("Teach with confidence 1.5: %v, want a schema error", err)
	}
}

func TestPlan(t *testing.T) {
	cases := []struct {
		name, answer string
		want         factbase.Plan
		kind         factbase.ModelErrorKind
	}{
		{name: "rank", answer: `{"kind":"rank","key":"favorites.movie","rank":2}`, want: factbase.Plan{Kind: factbase.PlanRank, Key: "favorites.movie", Rank: 2}},
		{name: "list drops rank", answer: `{"kind":"list","key":"favorites.movie","rank":3}`, want: factbase.Plan{Kind: factbase.PlanList, Key: "favorites.movie"}},
		{name: "none clears", answer: `{"kind":"none","key":"x","rank":1}`, want: factbase.Plan{Kind: factbase.PlanNone}},
		{name: "rank without rank", answer: `{"kind":"rank","key":"favorites.movie","rank":0}`, kind: factbase.ModelSchema},
		{name: "fact without key", answer: `{"kind":"fact","key":" ","rank":0}`, kind: factbase.ModelSchema},
		{name: "unknown kind", answer: `{"kind":"delete","key":"x","rank":0}`, kind: factbase.ModelSchema},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, "", content(tc.answer))
			c, _ := newClient(t, f, Options{})
			p, err := c.Plan(context.Background(), "which film do I like second best?", []string{"favorites.movie"})
			if factbase.ModelErrorKindOf(err) != tc.kind || err == nil && p != tc.want {
				t.Errorf("Plan = %+v, %v; want %+v, kind %q", p, err, tc.want, tc.kind)
			}
		})
	}
}

var _ = http.StatusOK
