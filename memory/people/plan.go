package people

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory/core"
	"github.com/factbase/factbase/normalize"
	"github.com/factbase/factbase/personal"
	"github.com/factbase/factbase/text"
)

// Options configure personal facts, entities and conflicts. The zero value takes
// the defaults each field names.
type Options struct {
	// ConfirmTypes are the fact types whose single-valued facts wait for the user's
	// confirmation when a message would change their value. Default: contact, work,
	// home, health. A non-nil empty slice confirms nothing by type.
	ConfirmTypes []string
	// PromoteAfter is in how many different sessions a communication preference must
	// be stated before it is promoted from a session preference to a durable one.
	// Default 3.
	PromoteAfter int
	// Off turns the personal-fact extractor off in Say.
	Off bool
}

// DefaultConfirmTypes are the fact types whose changes wait for confirmation.
var DefaultConfirmTypes = []string{"contact", "work", "home", "health"}

func (o Options) confirmTypes() map[string]bool {
	ts := o.ConfirmTypes
	if ts == nil {
		ts = DefaultConfirmTypes
	}
	m := make(map[string]bool, len(ts))
	for _, t := range ts {
		m[t] = true
	}
	return m
}

func (o Options) promoteAfter() int {
	if o.PromoteAfter <= 0 {
		return 3
	}
	return o.PromoteAfter
}

// DeclarePeopleKeys declares the cardinality of every key the personal-fact
// extractor writes (allergies, likes, schedules, ... are sets) in c, leaving alone
// any key c already declares. The extractor's ops carry their cardinality, so writes
// are right without it; reads by key (Get) need it.
func DeclarePeopleKeys(c *factbase.Cardinalities) {
	for k, card := range personal.Cardinalities() {
		if _, have := c.Exact[k]; have {
			continue
		}
		c.Declare(k, card) // a valid cardinality: no error
	}
}

// MessageInfo is what a caller knows about a message beyond its text.
type MessageInfo struct {
	// Time is when the message was said; temporal markers ("next Friday") resolve
	// against it. Zero: the time it is read.
	Time time.Time
	// Session identifies the conversation; a communication preference is promoted
	// once stated in enough different sessions. "": the message's UTC date.
	Session string
	// Speaker is who wrote the message: "user" (the default) or "assistant".
	Speaker string
}

type messageInfoKey struct{}

// WithMessage returns a context that carries info about the message Say reads (its
// time, session and speaker), for callers that know them (an HTTP request with a
// timestamp, a transcript).
func WithMessage(ctx context.Context, info MessageInfo) context.Context {
	return context.WithValue(ctx, messageInfoKey{}, info)
}

// Message returns what ctx carries about the message being read (WithMessage), with
// the defaults filled in: now, today's session, the user as speaker. Ask reads the
// time its question was asked at from it.
func Message(ctx context.Context) MessageInfo { return messageInfo(ctx) }

func messageInfo(ctx context.Context) MessageInfo {
	info, _ := ctx.Value(messageInfoKey{}).(MessageInfo)
	if info.Time.IsZero() {
		info.Time = time.Now()
	}
	if info.Session == "" {
		info.Session = info.Time.UTC().Format("2006-01-02")
	}
	if info.Speaker == "" {
		info.Speaker = personal.SpeakerUser
	}
	return info
}

// PersonalPlan is what the personal facts of one message come to: ops for the write
// path, and a hook (With) that writes, in the same transaction, the entities the
// message creates or updates, the conflicts it queues and the sessions of its
// communication preferences. Reply and Skipped are for the user.
type PersonalPlan struct {
	Ops       []factbase.Op              `json:"-"`
	With      func(w *core.Writer) error `json:"-"`
	Reply     []string                   `json:"reply"`
	Skipped   []string                   `json:"skipped"`
	Created   []factbase.Entity          `json:"created"`
	Updated   []factbase.Entity          `json:"updated"`
	Conflicts []factbase.Conflict        `json:"conflicts"`
	// Facts are the facts planned, with whom they are about.
	Facts []personal.Planned `json:"facts"`
	// Ended are the user's facts the message says no longer hold, retracted by Ops.
	Ended []Ended `json:"ended,omitempty"`
}

// Ended is a fact a message ends ("I'm not vegetarian anymore"), with its reply.
type Ended struct {
	ID    string `json:"id"`
	Key   string `json:"key"`
	Reply string `json:"reply"`
}

// KeepSet returns p without the retractions of ended facts whose key another part of
// the same message sets about the user ("I quit Oracle, I'm at Datadog now": the new
// employer supersedes the old one, which is not retracted as well). A key of many
// values supersedes nothing: "I sold the Focus and bought a Kia EV6" adds the Kia
// and still ends the Focus.
func (p PersonalPlan) KeepSet(ops []factbase.Op) PersonalPlan {
	if len(p.Ended) == 0 {
		return p
	}
	set := map[string]bool{}
	for _, op := range ops {
		if op.Kind == factbase.OpSet && op.Fact.Cardinality != factbase.Many &&
			(op.Fact.Subject == "" || op.Fact.Subject == factbase.SubjectUser) {
			set[op.Fact.Key] = true
		}
	}
	drop, replies := map[string]bool{}, map[string]bool{}
	var kept []Ended
	for _, en := range p.Ended {
		if set[en.Key] {
			drop[en.ID], replies[en.Reply] = true, true
		} else {
			kept = append(kept, en)
		}
	}
	if len(drop) == 0 {
		return p
	}
	out := p
	out.Ended, out.Ops, out.Reply = kept, nil, nil
	for _, op := range p.Ops {
		if !(op.Kind == factbase.OpRetract && drop[op.ID]) {
			out.Ops = append(out.Ops, op)
		}
	}
	for _, r := range p.Reply {
		if !replies[r] {
			out.Reply = append(out.Reply, r)
		}
	}
	return out
}

// Empty reports whether the plan writes nothing and has nothing to tell.
func (p PersonalPlan) Empty() bool { return len(p.Ops) == 0 && p.With == nil && len(p.Reply) == 0 }

// PlanMessageIn is PlanIn for a user's message as Say reads it: its time, session
// and speaker from ctx (WithMessage), its source the message.
func (s *Service) PlanMessageIn(ctx context.Context, tx factbase.ReadTx, user factbase.UserID, message string) (PersonalPlan, error) {
	return s.PlanMessageTextIn(ctx, tx, user, text.New(message))
}

// PlanMessageTextIn is PlanMessageIn reading the parse of the message, which Say
// shares with the router.
func (s *Service) PlanMessageTextIn(ctx context.Context, tx factbase.ReadTx, user factbase.UserID, tp *text.Parse) (PersonalPlan, error) {
	return s.PlanTextIn(ctx, tx, user, tp, messageInfo(ctx), factbase.Source{Kind: factbase.SourceMessage})
}

// trust ranks who said a fact: the user above a person they know above the
// assistant.
func personalTrust(saidBy string) int {
	switch {
	case saidBy == personal.SpeakerUser || saidBy == "":
		return 3
	case strings.HasPrefix(saidBy, "entity:"):
		return 2
	}
	return 1
}

// PlanPersonal extracts the personal facts of a message (personal.Extract), resolves
// the people it names against the user's entities, and plans the writes: facts about
// the user or an entity, new entities, and conflicts. A single-valued fact that would
// change value waits for confirmation instead of being applied when its type is one
// of PeopleOptions.ConfirmTypes or when it comes from a less trusted source than the
// current value (the assistant, a third party, or lower confidence) — unless the
// user states it as an explicit correction ("now", "moved to", "turned"). The plan is
// applied by passing Ops and With to ApplyWith (Say does); nothing is written here.
func (s *Service) PlanPersonal(ctx context.Context, user factbase.UserID, message string, info MessageInfo, src factbase.Source) (PersonalPlan, error) {
	if s.opts.Off {
		return PersonalPlan{}, nil
	}
	return core.Read(ctx, s.core, user, func(tx factbase.ReadTx) (PersonalPlan, error) {
		return s.PlanIn(ctx, tx, user, message, info, src)
	})
}

// PlanIn is PlanPersonal reading the user's entities, current facts, conflicts and
// preference sessions in tx, a read (or write) transaction of the user: a feature
// that reads in one snapshot (Say) plans the personal facts in it.
func (e *Service) PlanIn(ctx context.Context, tx factbase.ReadTx, user factbase.UserID, message string, info MessageInfo, src factbase.Source) (PersonalPlan, error) {
	return e.PlanTextIn(ctx, tx, user, text.New(message), info, src)
}

// PlanTextIn is PlanIn reading the parse of the message: its extractors (personal
// facts, dates, endings) share its tokens.
func (e *Service) PlanTextIn(ctx context.Context, tx factbase.ReadTx, user factbase.UserID, tp *text.Parse, info MessageInfo, src factbase.Source) (PersonalPlan, error) {
	if e.opts.Off {
		return PersonalPlan{}, nil
	}
	out := PersonalPlan{Reply: []string{}, Skipped: []string{}, Created: []factbase.Entity{}, Updated: []factbase.Entity{},
		Conflicts: []factbase.Conflict{}, Facts: []personal.Planned{}}
	if info.Time.IsZero() {
		info.Time = time.Now()
	}
	if info.Session == "" {
		info.Session = info.Time.UTC().Format("2006-01-02")
	}
	var (
		known    []factbase.Entity
		plan     personal.Plan
		current  = map[string]factbase.Fact{} // subject|key -> current fact of a one-valued key
		pending  = map[string]bool{}          // subject|key|norm of pending conflicts
		sessions = map[string][]string{}      // key|norm -> sessions
		learned  = map[string]string{}        // subject|norm -> id of a language being learnt
	)
	err := func() error {
		var err error
		if known, err = tx.Entities(ctx, factbase.EntityFilter{}); err != nil {
			return err
		}
		ex := personal.ExtractText(tp, personal.Options{Now: info.Time, Speaker: info.Speaker, Known: known})
		res := personal.Resolve(ex.Mentions, known)
		plan = personal.Attribute(ex, res, known, personal.PlanOptions{NewID: e.core.NewID, Now: info.Time,
			Speaker: info.Speaker, Source: src})
		for i, pf := range plan.Facts {
			f := &plan.Facts[i].Fact
			if f.Key == factbase.KeySpeaks {
				// "I'm fluent in Spanish now": a language spoken is no longer being learnt
				norm := normalize.Value(f.Value)
				if m, ok, err := tx.Member(ctx, f.Subject, factbase.KeyLearning, norm); err != nil {
					return err
				} else if ok {
					learned[f.Subject+"\x00"+norm] = m.ID
				}
			}
			if pf.Fact.Cardinality != factbase.One {
				continue
			}
			k := f.Subject + "\x00" + f.Key
			if _, seen := current[k]; !seen {
				cur, ok, err := tx.Current(ctx, f.Subject, f.Key)
				if err != nil {
					return err
				}
				if ok {
					current[k] = cur
				}
				cs, err := tx.Conflicts(ctx, factbase.ConflictFilter{Status: factbase.ConflictPending, Subject: f.Subject, Key: f.Key})
				if err != nil {
					return err
				}
				for _, c := range cs {
					pending[k+"\x00"+normalize.Value(c.Proposed.Value)] = true
				}
			}
			if strings.HasPrefix(f.Key, factbase.CommPrefix) {
				sk := f.Key + "\x00" + normalize.Value(f.Value)
				if sessions[sk], err = tx.PreferenceSessions(ctx, f.Key, normalize.Value(f.Value)); err != nil {
					return err
				}
			}
		}
		return nil
	}()
	if err != nil {
		return out, err
	}
	out.Created, out.Updated = plan.Create, plan.Update
	for _, s := range plan.Skips {
		out.Skipped = append(out.Skipped, s.Reason)
		if strings.HasPrefix(s.Reason, "orphan:") {
			out.Reply = append(out.Reply, "I did not store that: "+strings.TrimSpace(strings.TrimPrefix(s.Reason, "orphan:"))+".")
		}
	}
	confirm := e.opts.confirmTypes()
	type noted struct {
		key, session, norm string
	}
	var notes []noted
	var retract []string
	for _, pf := range plan.Facts {
		f := pf.Fact
		// A value that is not a clean constituent of its clause is not stored: a wrong
		// fact is worse than a missing one. A trailing "now" is the change's, not the
		// value's.
		clean, why, trimmed := normalize.Constituent(f.Value)
		if why != "" {
			out.Skipped = append(out.Skipped, fmt.Sprintf("unclear value %q for %s: %s", core.ClipText(f.Value), f.Key, why))
			continue
		}
		if trimmed {
			f.Text = strings.Replace(f.Text, f.Value, clean, 1)
			f.Value, pf.Correction = clean, true
		}
		k := f.Subject + "\x00" + f.Key
		norm := normalize.Value(f.Value)
		if id, ok := learned[f.Subject+"\x00"+norm]; ok && f.Key == factbase.KeySpeaks && !slices.Contains(retract, id) {
			retract = append(retract, id)
		}
		if strings.HasPrefix(f.Key, factbase.CommPrefix) {
			ss := sessions[f.Key+"\x00"+norm]
			n := len(ss)
			if !slices.Contains(ss, info.Session) {
				n++
				notes = append(notes, noted{f.Key, info.Session, norm})
			}
			if n >= e.opts.promoteAfter() {
				f.Durability = factbase.Durable
				f.Text = core.ClipText(fmt.Sprintf("%s (stated in %d sessions)", f.Text, n))
				// a promotion replaces the session preference with a durable one
				if cur, ok := current[k]; ok && normalize.Value(cur.Value) == norm && cur.Durability != factbase.Durable {
					retract = append(retract, cur.ID)
				}
			}
		}
		if f.Cardinality == factbase.One {
			cur, ok := current[k]
			if ok && normalize.Value(cur.Value) != norm {
				reason := ""
				switch {
				case pf.Correction && f.SaidBy == personal.SpeakerUser:
					// an explicit correction by the user applies directly
				case confirm[f.Type]:
					reason = fmt.Sprintf("a change of a %s fact needs your confirmation", f.Type)
				case personalTrust(f.SaidBy) < personalTrust(cur.SaidBy):
					reason = fmt.Sprintf("said by %s, less trusted than %s who said the current value", f.SaidBy, cmp.Or(cur.SaidBy, "the user"))
				case f.Confidence < cur.Confidence:
					reason = fmt.Sprintf("confidence %.2f is below the current value's %.2f", f.Confidence, cur.Confidence)
				}
				if reason != "" {
					if !pending[k+"\x00"+norm] {
						pending[k+"\x00"+norm] = true
						out.Conflicts = append(out.Conflicts, factbase.Conflict{ID: e.core.NewID(), User: user, Subject: f.Subject,
							Key: f.Key, CurrentID: cur.ID, CurrentValue: cur.Value, Proposed: f, Reason: reason,
							Status: factbase.ConflictPending})
						out.Reply = append(out.Reply, fmt.Sprintf("%s's %s is %s; you said %s. I kept %s until you confirm the change.",
							personalAbout(pf.About), personalKeyNoun(f.Key), cur.Value, f.Value, cur.Value))
					}
					continue
				}
			}
		}
		out.Ops = append(out.Ops, factbase.Op{Kind: factbase.OpSet, Fact: f})
		out.Facts = append(out.Facts, personal.Planned{Fact: f, About: pf.About, Correction: pf.Correction, Recur: pf.Recur})
	}
	if len(retract) > 0 {
		ops := make([]factbase.Op, 0, len(retract)+len(out.Ops))
		for _, id := range retract {
			ops = append(ops, factbase.Op{Kind: factbase.OpRetract, ID: id})
		}
		out.Ops = append(ops, out.Ops...)
	}
	ended, err := endedFacts(ctx, tx, tp, info, out.Ops)
	if err != nil {
		return out, err
	}
	out.Ended = ended
	var endOps []factbase.Op
	var endReplies []string
	for _, en := range ended {
		endOps = append(endOps, factbase.Op{Kind: factbase.OpRetract, ID: en.ID})
		endReplies = append(endReplies, en.Reply)
	}
	out.Ops = append(endOps, out.Ops...)
	out.Reply = append(append(personalReply(out.Facts), endReplies...), out.Reply...)
	if len(out.Ops) == 0 && len(out.Conflicts) == 0 && len(out.Created) == 0 && len(out.Updated) == 0 && len(notes) == 0 {
		return out, nil
	}
	snapshot := Fingerprint(known)
	created, updated, conflicts := out.Created, out.Updated, out.Conflicts
	out.With = func(w *core.Writer) error {
		now, err := w.Tx().Entities(ctx, factbase.EntityFilter{})
		if err != nil {
			return err
		}
		if Fingerprint(now) != snapshot {
			return factbase.Errorf(factbase.ECONFLICT, "the user's people changed while the message was read; send it again")
		}
		for _, en := range append(append([]factbase.Entity{}, created...), updated...) {
			en.User, en.UpdatedAt = user, w.Tx().Now()
			if err := w.Tx().PutEntity(ctx, en); err != nil {
				return err
			}
		}
		for _, c := range conflicts {
			c.CreatedAt = w.Tx().Now()
			if err := w.Tx().PutConflict(ctx, c); err != nil {
				return err
			}
		}
		for _, n := range notes {
			if err := w.Tx().NotePreferenceSession(ctx, n.key, n.norm, n.session); err != nil {
				return err
			}
		}
		return nil
	}
	return out, nil
}

// Fingerprint summarises a user's entities so that a write can tell whether
// they changed since they were read.
func Fingerprint(es []factbase.Entity) string {
	var b strings.Builder
	for _, e := range es {
		fmt.Fprintf(&b, "%s@%d;", e.ID, e.UpdatedAt.UnixNano())
	}
	return b.String()
}

// aboutName renders a plan's About for a reply: "your" for the user.
func personalAbout(about string) string {
	if about == "user" {
		return "Your"
	}
	return about
}

// keyNoun renders a key as words: "work.employer" -> "employer".
func personalKeyNoun(key string) string {
	switch key {
	case factbase.KeyEmployer:
		return "employer"
	case factbase.KeyRole:
		return "job"
	case factbase.KeyCity:
		return "home city"
	case factbase.KeyOrigin:
		return "home town"
	case factbase.KeyEmail:
		return "email"
	case factbase.KeyPhone:
		return "phone number"
	case factbase.KeyAvoid:
		return "food to avoid"
	}
	if i := strings.LastIndexByte(key, '.'); i >= 0 {
		key = key[i+1:]
	}
	return strings.ReplaceAll(key, "_", " ")
}

// phraseOf renders one fact for a reply: "age 8", "likes dinosaurs".
func personalPhrase(f factbase.Fact) string {
	v := f.Value
	switch f.Key {
	case factbase.KeyRelation:
		return ""
	case factbase.KeyAge:
		return "age " + v
	case factbase.KeyAllergy:
		return "allergic to " + v
	case factbase.KeyAvoid:
		return "avoids " + v
	case factbase.KeyMedication:
		return "takes " + v
	case factbase.KeyEmployer:
		return "works at " + v
	case factbase.KeyRole:
		return "works as " + v
	case factbase.KeyCity:
		return "lives in " + v
	case factbase.KeyOrigin:
		return "from " + v
	case factbase.KeyLikes:
		return "likes " + v
	case factbase.KeyDislikes:
		return "dislikes " + v
	case factbase.KeyFears:
		return "afraid of " + v
	case factbase.KeyBirthday:
		return "birthday " + v
	case factbase.KeyLength:
		return v + " answers"
	case factbase.KeyLanguage:
		return "answers in " + v
	case factbase.KeySpeaks:
		return "speaks " + v
	}
	return personalKeyNoun(f.Key) + " " + v
}

// replyLabel is how a reply to the user names the subject labelled about (a
// factbase.Entity's TextLabel, or "user"): "you", "your daughter", "Ana's husband",
// "Maria (sister)".
func replyLabel(about string) string {
	if about == "user" {
		return "you"
	}
	rel, ok := strings.CutPrefix(about, "User's ")
	switch {
	case !ok:
		return about
	case strings.Contains(rel, "'s "):
		return rel // someone else's relation
	}
	return "your " + rel
}

// personalReply renders planned facts as one sentence per subject.
func personalReply(facts []personal.Planned) []string {
	var order []string
	by := map[string][]string{}
	for _, pf := range facts {
		ph := personalPhrase(pf.Fact)
		if ph == "" {
			continue
		}
		if _, ok := by[pf.About]; !ok {
			order = append(order, pf.About)
		}
		by[pf.About] = append(by[pf.About], ph)
	}
	var out []string
	for _, a := range order {
		out = append(out, fmt.Sprintf("Noted for %s: %s.", replyLabel(a), strings.Join(by[a], ", ")))
	}
	return out
}

// sortEntities orders entities by creation, then id.
func sortEntities(es []factbase.Entity) {
	slices.SortStableFunc(es, func(a, b factbase.Entity) int {
		return cmp.Or(a.CreatedAt.Compare(b.CreatedAt), cmp.Compare(a.ID, b.ID))
	})
}
