package jobs

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory/chat"
	"github.com/factbase/factbase/memory/core"
	"github.com/factbase/factbase/memory/people"
	"github.com/factbase/factbase/normalize"
	"github.com/factbase/factbase/personal"
	"github.com/factbase/factbase/router"
	"github.com/factbase/factbase/when"
)

// The actions a Decision reports for one model proposal.
const (
	DecisionApplied   = "applied"   // became an op of the job's write
	DecisionConfirmed = "confirmed" // the rules proposed the same fact: stored once
	DecisionSkipped   = "skipped"   // refused by a check; Reason says which
	DecisionConflict  = "conflict"  // a new value for a one-valued fact, not applied (see Workers)
)

// Decision is what the engine decided about one fact the model proposed.
type Decision struct {
	Action string `json:"action"`
	Reason string `json:"reason,omitempty"`
	About  string `json:"about"`
	Key    string `json:"key"`
	Value  string `json:"value"`
	// CurrentID and CurrentValue name the current fact a conflict is with.
	CurrentID    string `json:"current_id,omitempty"`
	CurrentValue string `json:"current_value,omitempty"`
}

// RememberResult is what a remember job did; it is the job's Result.
type RememberResult struct {
	Route router.Route `json:"route"` // the rules' reading of the message
	// Rules says when the rules' ops were applied: RulesAtMessage (when the message
	// was received; the job compares the model's proposals with them) or RulesInJob.
	Rules   string        `json:"rules"`
	RuleOps []chat.OpView `json:"rule_ops"` // what the rules proposed
	Notes   []string      `json:"notes"`    // rule notes (a value to remove that is absent, ...)
	Model   string        `json:"model"`    // "" when no model is configured
	Prompt  string        `json:"prompt"`   // the prompt version used
	Topics  []string      `json:"topics"`   // the model's topics
	// Decisions has one entry per fact the model proposed, in its order.
	Decisions []Decision `json:"decisions"`
	// ModelNote says why the model's proposals were not used at all ("" if they were
	// considered one by one).
	ModelNote string `json:"model_note,omitempty"`
	// What the job's write did, counted from the statements.
	Stored     int                  `json:"stored"`
	Updated    int                  `json:"updated"`
	Retracted  int                  `json:"retracted"`
	Duplicates []factbase.Duplicate `json:"duplicates"`
	Mutations  []factbase.Mutation  `json:"mutations"`
	FactIDs    []string             `json:"fact_ids"` // facts written or touched
	Entities   []string             `json:"entities"` // entities the model's facts created
	Usage      factbase.ModelUsage  `json:"usage"`    // this attempt's model usage
}

// When a job's rule ops were applied (RememberResult.Rules).
const (
	RulesAtMessage = "message"
	RulesInJob     = "job"
)

// ExtractorLLM is the Extractor value stored in facts the model proposed.
const ExtractorLLM = "llm"

// minConfidence is the default least confidence of a model proposal.
const minConfidence = 0.5

// criticalTypes are fact types whose confidence is raised to at least 0.9: wrongly
// dropping an allergy costs more than keeping one.
var criticalTypes = map[string]bool{"allergy": true, "medical": true, "health": true}

// ModelSetKeys are the keys the extraction prompt names for things a user has
// several of ("hobbies", "likes.food"); a key ending in "*" is a prefix. The engine's
// cardinality declarations decide every write and read, so an engine that takes
// model proposals should declare these as sets: DeclareModelSets does.
var ModelSetKeys = []string{"health.allergies", "health.conditions", "hobbies", factbase.KeySpeaks, "pets",
	"skills", "diet.restrictions", "likes.*", "dislikes.*"}

// DeclareModelSets declares ModelSetKeys as sets (factbase.Many) in c, leaving alone
// any key or prefix c already declares.
func DeclareModelSets(c *factbase.Cardinalities) {
	for _, k := range ModelSetKeys {
		if p, ok := strings.CutSuffix(k, "*"); ok {
			if _, have := c.Prefix[p]; have {
				continue
			}
		} else if _, have := c.Exact[k]; have {
			continue
		}
		c.Declare(k, factbase.Many) // a valid cardinality: no error
	}
}

// validModelKey checks a key the model proposes: lower-case ASCII segments of
// letters, digits and '_', separated by dots, 1 to 4 segments, at most 64 bytes.
func validModelKey(key string) bool {
	if key == "" || len(key) > 64 {
		return false
	}
	segs := strings.Split(key, ".")
	if len(segs) > 4 {
		return false
	}
	for _, s := range segs {
		if s == "" || !(s[0] >= 'a' && s[0] <= 'z') {
			return false
		}
		for i := 0; i < len(s); i++ {
			c := s[i]
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
				return false
			}
		}
	}
	return true
}

// stated reports whether every word of value occurs in the message (a plural 's'
// or 'es' either side is forgiven): the model may shorten what the user said, never
// add to it.
func stated(msgWords map[string]bool, value string) bool {
	ws := normalize.Words(value)
	if len(ws) == 0 {
		return false
	}
	for _, w := range ws {
		if msgWords[w] || msgWords[w+"s"] || msgWords[w+"es"] ||
			strings.HasSuffix(w, "s") && msgWords[strings.TrimSuffix(w, "s")] ||
			strings.HasSuffix(w, "es") && msgWords[strings.TrimSuffix(w, "es")] {
			continue
		}
		return false
	}
	return true
}

// quoted reports whether evidence occurs in the message, compared after value
// normalisation (case, white space, quotes, trailing punctuation).
func quoted(message, evidence string) bool {
	ev := normalize.Value(evidence)
	return ev != "" && strings.Contains(normalize.Value(message), ev)
}

// injectionVerbs and injectionNouns find "ignore previous instructions" and its
// kin: a verb followed within four words by a noun.
var (
	injectionVerbs = map[string]bool{"ignore": true, "disregard": true, "forget": true, "override": true, "bypass": true}
	injectionNouns = map[string]bool{"instruction": true, "instructions": true, "rules": true, "prompt": true,
		"prompts": true, "guidelines": true, "directions": true, "above": true}
)

// injection reports whether a message speaks to the model rather than about the
// user: "ignore previous instructions", "disregard the rules above", "system
// prompt", "you are now". It is a heuristic second layer; the checks that every
// value and quote is in the message are the first.
func injection(message string) bool {
	ws := normalize.Words(message)
	for i, w := range ws {
		if injectionVerbs[w] {
			for j := i + 1; j < len(ws) && j <= i+4; j++ {
				if injectionNouns[ws[j]] {
					return true
				}
			}
		}
		if i+1 < len(ws) && (w == "system" && ws[i+1] == "prompt" || w == "you" && ws[i+1] == "are" && i+2 < len(ws) && ws[i+2] == "now") {
			return true
		}
	}
	return false
}

// proposal is a model fact on its way to an op.
type proposal struct {
	op  factbase.Op
	dec Decision
}

// modelPlan is what the engine decided about a model's answer: the ops to apply,
// the entities to create and the conflicts to queue (both written in the job's
// transaction), and one decision per proposed fact.
type modelPlan struct {
	ops       []factbase.Op
	entities  []factbase.Entity
	conflicts []factbase.Conflict
	decisions []Decision
}

// modelContext is what the model is told about the user, and what its answer is
// resolved against.
type modelContext struct {
	known       []factbase.Entity // the user's entities, merged ones left out
	fingerprint string            // of every entity, to detect a change before commit
	prompt      factbase.ExtractRequest
}

// modelInput reads what the extraction prompt carries: the user's current facts
// (newest first), the user's entities (those the message names first) and the
// current facts about the entities it names, bounded by factbase.MaxKnownEntities and
// factbase.MaxKnownFacts.
func (s *Service) modelInput(ctx context.Context, user factbase.UserID, message string, now time.Time) (modelContext, error) {
	mc := modelContext{prompt: factbase.ExtractRequest{Message: message, Now: now}}
	msgWords := wordSet(message)
	err := s.core.Store().View(ctx, user, func(tx factbase.ReadTx) error {
		var named []factbase.Entity
		all, err := tx.Entities(ctx, factbase.EntityFilter{})
		if err != nil {
			return err
		}
		mc.fingerprint = people.Fingerprint(all)
		var rest []factbase.Entity
		for _, en := range all {
			if en.MergedInto != "" {
				continue
			}
			mc.known = append(mc.known, en)
			if entityNamed(msgWords, en) {
				named = append(named, en)
			} else {
				rest = append(rest, en)
			}
		}
		for _, en := range append(append([]factbase.Entity{}, named...), rest...) {
			mc.prompt.Entities = append(mc.prompt.Entities, factbase.KnownEntity{ID: en.ID, Name: en.Name, Role: string(en.Role),
				Relation: en.Relation, Aliases: en.Aliases})
		}
		// The entities named get up to ten facts each; the user has the rest.
		var facts []factbase.Fact
		for _, en := range named {
			fs, err := tx.Facts(ctx, factbase.FactFilter{Subject: en.Subject(), NewestFirst: true, Limit: 10})
			if err != nil {
				return err
			}
			facts = append(facts, fs...)
		}
		if room := factbase.MaxKnownFacts - len(facts); room > 0 {
			fs, err := tx.Facts(ctx, factbase.FactFilter{Subject: factbase.SubjectUser, NewestFirst: true, Limit: room})
			if err != nil {
				return err
			}
			facts = append(fs, facts...)
		}
		for _, f := range facts {
			about := factbase.SubjectUser
			if id, ok := factbase.EntityID(f.Subject); ok {
				about = id
			}
			mc.prompt.Facts = append(mc.prompt.Facts, factbase.KnownFact{About: about, Key: f.Key, Value: f.Value})
		}
		return nil
	})
	return mc, err
}

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range normalize.Words(s) {
		m[w] = true
	}
	return m
}

// entityNamed reports whether a message names an entity: by its name, an alias or
// its relation word ("sister").
func entityNamed(msgWords map[string]bool, en factbase.Entity) bool {
	for _, n := range append([]string{en.Name, en.Relation}, en.Aliases...) {
		ws := normalize.Words(n)
		if len(ws) == 0 {
			continue
		}
		all := true
		for _, w := range ws {
			all = all && msgWords[w]
		}
		if all {
			return true
		}
	}
	return false
}

// modelOps turns a model's extraction into a plan. ruleOps are the ops the rules
// proposed for the same message and created the entities the rules create in the
// same job: a model fact equal to a rule's is confirmed (stored once, by the rule's
// op); a model fact for a one-valued key a rule sets is skipped (the rules decide).
// The checks, in order:
//
//   - the persistence test and the least confidence;
//   - the subject: "user", or an entity of the answer, resolved like the rules'
//     mentions (personal.Resolve against the user's entities and those the rules
//     create): a known entity, a new one (created with the facts, when its name or
//     relation is stated in the message), or an ambiguous match, whose facts are
//     skipped; a fact about no entity is an orphan, skipped;
//   - the key's form, and the value's: every word of the value must occur in the
//     message, and the evidence must be a quote of it;
//   - the same validation as every write (the write path's prepare); keys the
//     personal-fact extractor knows take its cardinality, type and category;
//   - the conflict policy for a changed one-valued fact: with replace false the
//     current value stays and the change is queued as a pending conflict for the
//     user to confirm (when the store keeps conflicts) and reported.
func (e *Service) modelOps(ctx context.Context, user factbase.UserID, job, message string, x factbase.Extraction, ruleOps []factbase.Op,
	created []factbase.Entity, mc modelContext, replace bool, now time.Time) (modelPlan, error) {
	msgWords := wordSet(message)
	refs := map[string]factbase.ProposedEntity{}
	for _, en := range x.Entities {
		refs[en.Ref] = en
	}
	type kv struct{ subject, key, norm string }
	ruleSet := map[kv]bool{}
	ruleOne := map[[2]string]bool{}
	for _, op := range ruleOps {
		if op.Kind == factbase.OpSet {
			ruleSet[kv{subjectOf(op.Fact), op.Fact.Key, normalize.Value(op.Fact.Value)}] = true
			if op.Fact.Cardinality == factbase.One {
				ruleOne[[2]string{subjectOf(op.Fact), op.Fact.Key}] = true
			}
		}
	}
	var plan modelPlan
	cands := append(append([]factbase.Entity{}, mc.known...), created...)
	subjects := map[string]string{} // ref -> subject
	reasons := map[string]string{}  // ref -> why its facts are skipped
	resolve := func(ref string) (string, string) {
		if s, ok := subjects[ref]; ok {
			return s, ""
		}
		if r, ok := reasons[ref]; ok {
			return "", r
		}
		s, r := e.resolveEntity(refs[ref], msgWords, &cands, &plan, now)
		subjects[ref], reasons[ref] = s, r
		if r != "" {
			delete(subjects, ref)
		} else {
			delete(reasons, ref)
		}
		return s, r
	}
	all := make([]*proposal, 0, len(x.Facts))
	seen := map[kv]bool{}
	for _, p := range x.Facts {
		pr := &proposal{dec: Decision{About: p.About, Key: p.Key, Value: p.Value}}
		all = append(all, pr)
		skip := func(format string, args ...any) {
			pr.dec.Action, pr.dec.Reason = DecisionSkipped, fmt.Sprintf(format, args...)
		}
		key := strings.TrimSpace(p.Key)
		value := strings.TrimSpace(p.Value)
		subject := factbase.SubjectUser
		switch {
		case !p.RememberNextWeek:
			skip("fails the persistence test (not worth remembering next week)")
		case p.Confidence < minConfidence:
			skip("confidence %.2f is below %.2f", p.Confidence, minConfidence)
		case p.About != factbase.SubjectUser:
			if _, ok := refs[p.About]; !ok {
				skip("orphan: about %q names neither the user nor an entity of the answer", core.ClipText(p.About))
				break
			}
			s, reason := resolve(p.About)
			if reason != "" {
				skip("%s", reason)
				break
			}
			subject = s
		}
		switch {
		case pr.dec.Action != "":
		case !validModelKey(key):
			skip("key %q is not a dotted lower-case key", core.ClipText(key))
		case !stated(msgWords, value):
			skip("the value is not stated in the message")
		case !quoted(message, p.Evidence):
			skip("the evidence is not a quote of the message")
		}
		if pr.dec.Action != "" {
			continue
		}
		f := factbase.Fact{Subject: subject, Key: key, Value: value, Text: core.ClipText(strings.TrimSpace(p.Text)),
			Type: p.Type, Confidence: p.Confidence, Durability: factbase.Durability(p.Durability),
			Sensitivity: sensitivity(p.Sensitivity), SaidBy: "user", Source: factbase.Source{Kind: factbase.SourceMessage, ID: job},
			Extractor: ExtractorLLM, Category: factbase.Core}
		if f.Text == "" {
			f.Text = core.ClipText(key + ": " + value)
		}
		if f.Durability == factbase.Short || p.Type == "schedule" || p.Type == "travel" {
			f.Category = factbase.Transient
		}
		if t := strings.TrimSpace(p.Temporal); t != "" && quoted(message, t) {
			f.Temporal = t
			if m, ok := when.Parse(t, now); ok {
				a := m.Anchor
				f.Anchor = &a
			}
		}
		switch {
		case strings.HasPrefix(key, factbase.FavoritesPrefix):
			c, err := e.chat.TopicKey(ctx, user, strings.ReplaceAll(strings.TrimPrefix(key, factbase.FavoritesPrefix), "_", " "))
			if err != nil {
				return modelPlan{}, err
			}
			f.Key, f.Cardinality, f.Type = c.Key, factbase.Ranked, "preference"
		default:
			if typ, card, cat, dur, sens, _, ok := personal.Spec(key); ok {
				// A key the personal-fact extractor writes: its declaration decides.
				f.Type, f.Cardinality, f.Category, f.Durability, f.Sensitivity = typ, card, cat, dur, sens
			} else {
				f.Cardinality = e.core.Cardinality(key)
			}
		}
		if criticalTypes[f.Type] && f.Confidence < 0.9 {
			f.Confidence = 0.9
		}
		pr.dec.Key = f.Key
		pr.op = factbase.Op{Kind: factbase.OpSet, Fact: f}
		k := kv{f.Subject, f.Key, normalize.Value(f.Value)}
		switch {
		case ruleSet[k]:
			pr.dec.Action, pr.dec.Reason = DecisionConfirmed, "the rules found the same fact; it is stored once"
		case ruleOne[[2]string{f.Subject, f.Key}]:
			skip("the rules set %s from this message", f.Key)
		case seen[k]:
			skip("the model proposed this fact twice")
		}
		seen[k] = true
		if pr.dec.Action != "" {
			continue
		}
		if _, err := e.core.Prepare(pr.op); err != nil {
			skip("invalid: %s", factbase.ErrorMessage(err))
			continue
		}
		pr.dec.Action = DecisionApplied
	}
	// What is stored decides the rest: a key already held with another cardinality
	// keeps it, and a changed one-valued fact follows the conflict policy.
	err := e.core.Store().View(ctx, user, func(tx factbase.ReadTx) error {
		for _, pr := range all {
			if pr.dec.Action != DecisionApplied {
				continue
			}
			f := &pr.op.Fact
			have, err := tx.Facts(ctx, factbase.FactFilter{Subject: f.Subject, Key: f.Key, Limit: 1})
			if err != nil {
				return err
			}
			if len(have) > 0 && have[0].Cardinality != f.Cardinality && f.Cardinality != factbase.Ranked {
				f.Cardinality = have[0].Cardinality
			}
			if f.Cardinality != factbase.One {
				continue
			}
			cur, ok, err := tx.Current(ctx, f.Subject, f.Key)
			if err != nil {
				return err
			}
			if !ok || normalize.Value(cur.Value) == normalize.Value(f.Value) || replace {
				continue
			}
			pr.dec.Action = DecisionConflict
			pr.dec.CurrentID, pr.dec.CurrentValue = cur.ID, cur.Value
			pr.dec.Reason = "a new value for a one-valued fact; the conflict policy keeps the current value"
			pending, err := tx.Conflicts(ctx, factbase.ConflictFilter{Status: factbase.ConflictPending, Subject: f.Subject, Key: f.Key})
			if err != nil {
				return err
			}
			dup := false
			for _, c := range pending {
				dup = dup || normalize.Value(c.Proposed.Value) == normalize.Value(f.Value)
			}
			if dup {
				pr.dec.Reason += "; the same change already waits for confirmation"
				continue
			}
			c := factbase.Conflict{ID: e.core.NewID(), User: user, Subject: f.Subject, Key: f.Key, CurrentID: cur.ID,
				CurrentValue: cur.Value, Proposed: *f, Status: factbase.ConflictPending,
				Reason: "proposed by the model (" + ExtractorLLM + "); a change needs your confirmation"}
			plan.conflicts = append(plan.conflicts, c)
			pr.dec.Reason += "; queued for confirmation as conflict " + c.ID
		}
		return nil
	})
	if err != nil {
		return modelPlan{}, err
	}
	plan.decisions = make([]Decision, 0, len(all))
	used := map[string]bool{}
	for _, pr := range all {
		if pr.dec.Action == DecisionApplied {
			plan.ops = append(plan.ops, pr.op)
			used[pr.op.Fact.Subject] = true
		}
		plan.decisions = append(plan.decisions, pr.dec)
	}
	// An entity is created only with a fact about it.
	var keep []factbase.Entity
	for _, en := range plan.entities {
		if used[en.Subject()] {
			keep = append(keep, en)
			if en.Relation != "" {
				op := people.RelationOp(en)
				op.Fact.Source, op.Fact.Extractor = factbase.Source{Kind: factbase.SourceMessage, ID: job}, ExtractorLLM
				plan.ops = append([]factbase.Op{op}, plan.ops...)
			}
		}
	}
	plan.entities = keep
	return plan, nil
}

// resolveEntity resolves an entity the model named, as the rules resolve a mention:
// it returns the subject of its facts, or why they are skipped. A new entity is
// added to plan.entities and to cands (so that a second ref to it finds it).
func (s *Service) resolveEntity(en factbase.ProposedEntity, msgWords map[string]bool, cands *[]factbase.Entity, plan *modelPlan, now time.Time) (string, string) {
	label := strings.TrimSpace(en.Name)
	if label == "" {
		label = "the user's " + strings.TrimSpace(en.Relation)
		if strings.TrimSpace(en.Relation) == "" {
			label = "the user's " + en.Role
		}
	}
	switch {
	case strings.TrimSpace(en.Name) == "" && strings.TrimSpace(en.Relation) == "":
		return "", fmt.Sprintf("orphan: the entity %q has neither a name nor a relation", core.ClipText(en.Ref))
	case en.Name != "" && !stated(msgWords, en.Name):
		return "", fmt.Sprintf("the entity's name %q is not in the message", core.ClipText(en.Name))
	case en.Relation != "" && !stated(msgWords, en.Relation):
		return "", fmt.Sprintf("the entity's relation %q is not in the message", core.ClipText(en.Relation))
	}
	role, err := factbase.ParseRole(en.Role)
	if err != nil {
		role = factbase.RoleOther
	}
	m := personal.Mention{Name: strings.TrimSpace(en.Name), Relation: strings.ToLower(strings.TrimSpace(en.Relation)), Role: role}
	r := personal.Resolve([]personal.Mention{m}, *cands)[0]
	switch {
	case r.Skip:
		return "", r.Reason
	case r.EntityID != "":
		if en.KnownID != "" && en.KnownID != r.EntityID {
			return "", fmt.Sprintf("ambiguous: the model says %s is entity %s, resolution says %s", core.ClipText(label), core.ClipText(en.KnownID), r.EntityID)
		}
		return factbase.EntitySubject(r.EntityID), ""
	case en.KnownID != "":
		return "", fmt.Sprintf("ambiguous: the model says %s is entity %s, which resolution does not confirm", core.ClipText(label), core.ClipText(en.KnownID))
	}
	ne, err := people.CheckEntity(factbase.Entity{Name: m.Name, Relation: m.Relation, Role: role})
	if err != nil {
		return "", "invalid entity: " + factbase.ErrorMessage(err)
	}
	ne.ID, ne.CreatedAt, ne.UpdatedAt = s.core.NewID(), now, now
	plan.entities = append(plan.entities, ne)
	*cands = append(*cands, ne)
	return ne.Subject(), ""
}

func subjectOf(f factbase.Fact) string {
	if f.Subject == "" {
		return factbase.SubjectUser
	}
	return f.Subject
}

func entityLabel(en factbase.ProposedEntity) string {
	if en.Name != "" {
		return fmt.Sprintf("%q (%s)", core.ClipText(en.Name), en.Role)
	}
	return "the user's " + en.Role
}

func sensitivity(s string) factbase.Sensitivity {
	switch s {
	case "high":
		return factbase.High
	case "medium":
		return factbase.MediumSens
	}
	return factbase.Low
}

// validMessage checks a message for Remember.
func validMessage(message string) error {
	switch {
	case strings.TrimSpace(message) == "":
		return factbase.Errorf(factbase.EINVALID, "the message is empty")
	case len(message) > router.MaxMessage:
		return factbase.Errorf(factbase.EINVALID, "the message is %d bytes, more than the limit of %d", len(message), router.MaxMessage)
	case !utf8.ValidString(message):
		return factbase.Errorf(factbase.EINVALID, "the message is not valid UTF-8")
	}
	return nil
}
