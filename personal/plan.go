package personal

import (
	"strings"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/when"
)

// Planned is one fact ready for the write path, with what the conflict policy needs.
type Planned struct {
	Fact factbase.Fact `json:"fact"`
	// About names the subject in reports: "user" or the entity's label.
	About string `json:"about"`
	// Correction reports an explicit change, applied directly.
	Correction bool            `json:"correction,omitempty"`
	Recur      when.Recurrence `json:"recur,omitempty"`
}

// Plan is what a message comes to against a user's entities: facts with their
// subjects, the entities to create or update, and what was skipped and why.
type Plan struct {
	Facts       []Planned         `json:"facts"`
	Create      []factbase.Entity `json:"create"`
	Update      []factbase.Entity `json:"update"`
	Skips       []Skip            `json:"skips"`
	Mentions    []Mention         `json:"mentions"`
	Resolutions []Resolution      `json:"resolutions"`
}

// PlanOptions configure Attribute.
type PlanOptions struct {
	// NewID makes entity ids; required when a message names someone new.
	NewID func() string
	// Now is the time new entities are created at.
	Now time.Time
	// Speaker is who wrote the message (SpeakerUser by default): the said-by of
	// facts the speaker states.
	Speaker string
	// Source is the source of every fact.
	Source factbase.Source
}

// Attribute turns an extraction and its resolutions into a plan: each fact gets the
// subject of the entity it is about (EntitySubject) or the user's, and the said-by
// of whoever stated it. A fact about a mention that was skipped (ambiguous) is not
// planned ("orphan") and its skip says why. Known are the user's entities, as given
// to Resolve; entities referenced by no fact are neither created nor updated.
func Attribute(ex Extraction, res []Resolution, known []factbase.Entity, o PlanOptions) Plan {
	plan := Plan{Facts: []Planned{}, Create: []factbase.Entity{}, Update: []factbase.Entity{}, Skips: append([]Skip{}, ex.Skips...),
		Mentions: ex.Mentions, Resolutions: res}
	speaker := o.Speaker
	if speaker == "" {
		speaker = SpeakerUser
	}
	byID := map[string]factbase.Entity{}
	for _, e := range known {
		byID[e.ID] = e
	}
	used := make([]bool, len(ex.Mentions))
	for _, f := range ex.Facts {
		if f.About >= 0 && f.About < len(used) {
			used[f.About] = true
		}
		if f.SaidBy >= 0 && f.SaidBy < len(used) {
			used[f.SaidBy] = true
		}
	}
	// target[i] is the entity mention i is, after updates; ok[i] false when skipped.
	target := make([]factbase.Entity, len(ex.Mentions))
	ok := make([]bool, len(ex.Mentions))
	updated := map[string]int{} // entity id -> index in plan.Update
	for i, m := range ex.Mentions {
		if !used[i] || i >= len(res) {
			continue
		}
		r := res[i]
		switch {
		case r.Skip:
			continue
		case r.New:
			e := factbase.Entity{Name: m.Name, Role: m.Role, Relation: m.Relation, Aliases: []string{},
				CreatedAt: o.Now, UpdatedAt: o.Now}
			if e.Role == "" {
				e.Role = factbase.RoleOther
			}
			if o.NewID != nil {
				e.ID = o.NewID()
			}
			if m.Age != "" {
				e.Attributes = map[string]string{"age": m.Age}
			}
			plan.Create = append(plan.Create, e)
			target[i], ok[i] = e, true
		default:
			e, found := byID[r.EntityID]
			if !found {
				continue
			}
			if k, seen := updated[e.ID]; seen {
				e = plan.Update[k]
			}
			if ne, changed := enrich(e, m); changed {
				if k, seen := updated[e.ID]; seen {
					plan.Update[k] = ne
				} else {
					updated[e.ID] = len(plan.Update)
					plan.Update = append(plan.Update, ne)
				}
				e = ne
			}
			target[i], ok[i] = e, true
		}
	}
	reported := map[int]bool{}
	for _, f := range ex.Facts {
		pf := factbase.Fact{Key: f.Key, Value: f.Value, Cardinality: f.Cardinality, ValueType: f.ValueType, Type: f.Type,
			Category: f.Category, Confidence: f.Confidence, Durability: f.Durability, Sensitivity: f.Sensitivity,
			Temporal: f.Temporal, Anchor: f.Anchor, Source: o.Source, Extractor: "people:" + f.Rule}
		about := "user"
		if f.About == User {
			pf.Subject = factbase.SubjectUser
			pf.Text = clip(f.Text("User"))
		} else {
			if f.About >= len(ok) || !ok[f.About] {
				if f.About < len(res) && !reported[f.About] {
					reported[f.About] = true
					plan.Skips = append(plan.Skips, Skip{Span: f.Span, Reason: "orphan: facts about " +
						mentionLabel(ex.Mentions[f.About]) + " were not stored: " + res[f.About].Reason})
				}
				continue
			}
			e := target[f.About]
			pf.Subject = factbase.EntitySubject(e.ID)
			about = Label(e)
			pf.Text = clip(f.Text(about))
		}
		switch {
		case f.SaidBy >= 0 && f.SaidBy < len(ok) && ok[f.SaidBy]:
			pf.SaidBy = factbase.EntitySubject(target[f.SaidBy].ID)
		default:
			pf.SaidBy = speaker
		}
		plan.Facts = append(plan.Facts, Planned{Fact: pf, About: about, Correction: f.Correction, Recur: f.Recur})
	}
	return plan
}

// enrich adds what mention m tells about a known entity: a name it lacked, a
// relation it lacked or a more specific one ("son" for "child"), an age.
func enrich(e factbase.Entity, m Mention) (factbase.Entity, bool) {
	changed := false
	if e.Name == "" && m.Name != "" {
		e.Name, changed = m.Name, true
	}
	if m.Relation != "" && (e.Relation == "" || genericRelations[e.Relation] && !genericRelations[m.Relation] && roleOf(m.Relation) == e.Role) {
		if e.Relation != m.Relation {
			e.Relation, changed = m.Relation, true
			if m.Role != "" {
				e.Role = m.Role
			}
		}
	}
	if (e.Role == "" || e.Role == factbase.RoleOther && e.Relation == m.Relation) && m.Role != "" && m.Role != e.Role {
		e.Role, changed = m.Role, true
	}
	if m.Age != "" && e.Attributes["age"] != m.Age {
		attrs := make(map[string]string, len(e.Attributes)+1)
		for k, v := range e.Attributes {
			attrs[k] = v
		}
		attrs["age"] = m.Age
		e.Attributes, changed = attrs, true
	}
	if changed {
		e.Aliases = append([]string{}, e.Aliases...)
	}
	return e, changed
}

// Label names an entity in fact texts: "Leo (son)", "Martin (colleague)", "Sarah",
// "User's son".
func Label(e factbase.Entity) string { return e.TextLabel() }

func clip(s string) string {
	r := []rune(s)
	if len(r) <= factbase.MaxTextLen {
		return s
	}
	return strings.TrimSpace(string(r[:factbase.MaxTextLen-1])) + "…"
}
