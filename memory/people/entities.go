package people

import (
	"context"
	"fmt"
	"strings"
	"unicode"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory/core"
	"github.com/factbase/factbase/personal"
)

// EntityView is an entity with a page of its facts.
type EntityView struct {
	factbase.Entity
	// Facts are a page of the entity's current facts, or of every version with history
	// (facts of entities merged into it included), oldest first.
	Facts []factbase.Fact `json:"facts"`
	// Offset and Limit are the page's; More is true when facts after it remain (the
	// next page starts at Offset+Limit).
	Offset int  `json:"offset"`
	Limit  int  `json:"limit"`
	More   bool `json:"more"`
	// Merged are the entities merged into this one.
	Merged []string `json:"merged,omitempty"`
}

// EntityResult is what an entity operation did: the entity as it now is, and what the
// write path did to facts.
type EntityResult struct {
	Entity factbase.Entity  `json:"entity"`
	Result factbase.Result  `json:"result"`
	Other  *factbase.Entity `json:"other,omitempty"` // merge: the entity merged away; split: the source
}

// EntityPage is one page of a user's entities.
type EntityPage struct {
	Entities []factbase.Entity `json:"entities"`
	Offset   int               `json:"offset"`
	Limit    int               `json:"limit"`
	// More is true when entities after this page remain (the next page starts at
	// Offset+Limit).
	More bool `json:"more"`
}

// Entities returns a page of the user's entities, oldest first; merged ones only
// when asked. A zero limit means core.DefaultPageSize; a limit above
// core.MaxPageSize or a negative offset is EINVALID.
func (s *Service) Entities(ctx context.Context, user factbase.UserID, includeMerged bool, offset, limit int) (EntityPage, error) {
	if _, err := factbase.ParseUserID(string(user)); err != nil {
		return EntityPage{}, err
	}
	limit, err := core.PageLimit(offset, limit)
	if err != nil {
		return EntityPage{}, err
	}
	p := EntityPage{Offset: offset, Limit: limit}
	err = s.core.View(ctx, user, func(tx factbase.ReadTx) error {
		es, err := tx.Entities(ctx, factbase.EntityFilter{Live: !includeMerged, Offset: offset, Limit: limit + 1})
		p.Entities, p.More = core.TrimPage(es, limit)
		return err
	})
	return p, err
}

// LiveEntities returns every entity of the user not merged into another, oldest
// first: for matching the names a message or a question uses. It reads one row per
// entity and none of their facts.
func (s *Service) LiveEntities(ctx context.Context, user factbase.UserID) ([]factbase.Entity, error) {
	if _, err := factbase.ParseUserID(string(user)); err != nil {
		return nil, err
	}
	return core.ReadList(ctx, s.core, user, func(tx factbase.ReadTx) ([]factbase.Entity, error) {
		return tx.Entities(ctx, factbase.EntityFilter{Live: true})
	})
}

// FindEntity returns the entity ref names: its id, or else its name or an alias
// (ignoring case) if exactly one live entity has it. ENOTFOUND if none; ECONFLICT
// if several do.
func (s *Service) FindEntity(ctx context.Context, user factbase.UserID, ref string) (factbase.Entity, error) {
	ref = strings.TrimSpace(ref)
	if ref == "" {
		return factbase.Entity{}, factbase.Errorf(factbase.EINVALID, "no entity named: give an id or a name")
	}
	if _, err := factbase.ParseUserID(string(user)); err != nil {
		return factbase.Entity{}, err
	}
	var all []factbase.Entity
	err := s.core.View(ctx, user, func(tx factbase.ReadTx) error {
		// An id is one look-up; only a name reads the user's entities.
		en, err := tx.Entity(ctx, ref)
		if err == nil {
			all = []factbase.Entity{en}
			return nil
		}
		if factbase.ErrorCode(err) != factbase.ENOTFOUND {
			return err
		}
		all, err = tx.Entities(ctx, factbase.EntityFilter{Live: true})
		return err
	})
	if err != nil {
		return factbase.Entity{}, err
	}
	var byName []factbase.Entity
	for _, en := range all {
		if en.ID == ref {
			return en, nil
		}
		if en.MergedInto != "" {
			continue
		}
		for _, n := range append([]string{en.Name}, en.Aliases...) {
			if n != "" && strings.EqualFold(n, ref) {
				byName = append(byName, en)
				break
			}
		}
	}
	switch len(byName) {
	case 0:
		return factbase.Entity{}, factbase.Errorf(factbase.ENOTFOUND, "entity %q not found", ref)
	case 1:
		return byName[0], nil
	}
	var ids []string
	for _, en := range byName {
		ids = append(ids, fmt.Sprintf("%s (%s, %s)", en.ID, personal.Label(en), en.Role))
	}
	return factbase.Entity{}, factbase.Errorf(factbase.ECONFLICT, "%d entities are named %q: %s; use an id", len(byName), ref, strings.Join(ids, ", "))
}

// Labels returns how to refer to each entity among subjects ("entity:<id>"), by
// subject: its name, or "your <relation>". Subjects that name no entity of the user
// are left out. It reads one entity per subject, so that labelling a page of
// conflicts costs the page, not the user's entities.
func (s *Service) Labels(ctx context.Context, user factbase.UserID, subjects []string) (map[string]string, error) {
	out := make(map[string]string, len(subjects))
	err := s.core.View(ctx, user, func(tx factbase.ReadTx) error {
		for _, sub := range subjects {
			id, ok := factbase.EntityID(sub)
			if _, done := out[sub]; !ok || done {
				continue
			}
			en, err := tx.Entity(ctx, id)
			if factbase.ErrorCode(err) == factbase.ENOTFOUND {
				continue
			}
			if err != nil {
				return err
			}
			out[sub] = en.Label()
		}
		return nil
	})
	return out, err
}

// Entity returns an entity with a page of its current facts, oldest first, or of
// every version of its facts and of the facts of entities merged into it when history
// is set. A zero limit means core.DefaultPageSize; a limit above core.MaxPageSize or
// a negative offset is EINVALID.
func (e *Service) Entity(ctx context.Context, user factbase.UserID, id string, history bool, offset, limit int) (EntityView, error) {
	if _, err := factbase.ParseUserID(string(user)); err != nil {
		return EntityView{}, err
	}
	limit, err := core.PageLimit(offset, limit)
	if err != nil {
		return EntityView{}, err
	}
	v := EntityView{Offset: offset, Limit: limit}
	err = e.core.View(ctx, user, func(tx factbase.ReadTx) error {
		var err error
		if v.Entity, err = tx.Entity(ctx, id); err != nil {
			return err
		}
		subjects := []string{v.Subject()}
		all, err := tx.Entities(ctx, factbase.EntityFilter{})
		if err != nil {
			return err
		}
		for _, o := range entitiesMergedInto(all, id) {
			v.Merged = append(v.Merged, o.ID)
			if history {
				subjects = append(subjects, o.Subject())
			}
		}
		fs, err := tx.Facts(ctx, factbase.FactFilter{Subjects: subjects, History: history, Offset: offset, Limit: limit + 1})
		v.Facts, v.More = core.TrimPage(fs, limit)
		r := factbase.NewRelabeler(all) // the texts name the entity as it is named now
		for i := range v.Facts {
			v.Facts[i].Text = r.Text(v.Facts[i])
		}
		return err
	})
	return v, err
}

// mergedInto returns the entities merged into id, directly or through others.
func entitiesMergedInto(all []factbase.Entity, id string) []factbase.Entity {
	var out []factbase.Entity
	frontier := map[string]bool{id: true}
	for len(frontier) > 0 {
		next := map[string]bool{}
		for _, en := range all {
			if frontier[en.MergedInto] && en.ID != id {
				out = append(out, en)
				next[en.ID] = true
			}
		}
		frontier = next
		if len(out) > len(all) {
			break
		}
	}
	return out
}

// validName checks a name, alias or relation.
func entityName(what, s string, required bool) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		if required {
			return "", factbase.Errorf(factbase.EINVALID, "%s is empty", what)
		}
		return "", nil
	}
	if len(s) > factbase.MaxEntityName {
		return "", factbase.Errorf(factbase.EINVALID, "%s is longer than %d bytes", what, factbase.MaxEntityName)
	}
	for _, r := range s {
		if unicode.IsControl(r) {
			return "", factbase.Errorf(factbase.EINVALID, "%s %q contains a control character", what, s)
		}
	}
	return s, nil
}

// CheckEntity checks and tidies an entity given by a caller or a model.
func CheckEntity(in factbase.Entity) (factbase.Entity, error) {
	var err error
	if in.Name, err = entityName("entity name", in.Name, false); err != nil {
		return in, err
	}
	if in.Relation, err = entityName("relation", in.Relation, false); err != nil {
		return in, err
	}
	if in.Name == "" && in.Relation == "" {
		return in, factbase.Errorf(factbase.EINVALID, "an entity needs a name or a relation")
	}
	if in.Role, err = factbase.ParseRole(string(in.Role)); err != nil {
		return in, err
	}
	aliases := []string{}
	for _, a := range in.Aliases {
		a, err := entityName("alias", a, true)
		if err != nil {
			return in, err
		}
		if !entityHas(aliases, a) && !strings.EqualFold(a, in.Name) {
			aliases = append(aliases, a)
		}
	}
	if len(aliases) > factbase.MaxAliases {
		return in, factbase.Errorf(factbase.EINVALID, "%d aliases; the limit is %d", len(aliases), factbase.MaxAliases)
	}
	in.Aliases = aliases
	return in, nil
}

func entityHas(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// RelationOp is the op that records an entity's relation as a fact.
func RelationOp(en factbase.Entity) factbase.Op {
	typ, card, cat, dur, sens, conf, _ := personal.Spec(factbase.KeyRelation)
	return factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Subject: en.Subject(), Key: factbase.KeyRelation,
		Value: en.Relation, Cardinality: card, Type: typ, Category: cat, Durability: dur, Sensitivity: sens, Confidence: conf,
		SaidBy: personal.SpeakerUser, Source: factbase.Source{Kind: factbase.SourceManual}, Extractor: "manual",
		Text: core.ClipText(personal.Label(en) + " is the user's " + en.Relation)}}
}

// CreateEntity creates an entity from a name and/or relation, a role (default other)
// and aliases; its relation is recorded as a fact too. It returns the entity.
func (s *Service) CreateEntity(ctx context.Context, user factbase.UserID, in factbase.Entity) (EntityResult, error) {
	if _, err := factbase.ParseUserID(string(user)); err != nil {
		return EntityResult{}, err
	}
	en, err := s.newEntity(user, in)
	if err != nil {
		return EntityResult{}, err
	}
	var ops []factbase.Op
	if en.Relation != "" {
		ops = append(ops, RelationOp(en))
	}
	return s.putEntity(ctx, user, en, ops)
}

// newEntity checks in and makes it a new entity of user, not yet stored.
func (s *Service) newEntity(user factbase.UserID, in factbase.Entity) (factbase.Entity, error) {
	en, err := CheckEntity(in)
	if err != nil {
		return factbase.Entity{}, err
	}
	en.ID, en.User, en.MergedInto = s.core.NewID(), user, ""
	return en, nil
}

// putEntity stores the new entity en and applies ops in one write; the result
// carries the write's counts, not its facts.
func (s *Service) putEntity(ctx context.Context, user factbase.UserID, en factbase.Entity, ops []factbase.Op) (EntityResult, error) {
	return s.putEntityWith(ctx, user, en, ops, nil)
}

// putEntityWith is putEntity that also runs with (when set) in the write.
func (s *Service) putEntityWith(ctx context.Context, user factbase.UserID, en factbase.Entity, ops []factbase.Op,
	with func(w *core.Writer) error) (EntityResult, error) {
	res, err := s.core.ApplyWith(ctx, user, ops, func(w *core.Writer) error {
		en.CreatedAt, en.UpdatedAt = w.Tx().Now(), w.Tx().Now()
		if err := w.Tx().PutEntity(ctx, en); err != nil {
			return err
		}
		if with != nil {
			return with(w)
		}
		return nil
	})
	if err != nil {
		return EntityResult{}, err
	}
	res.Facts = nil
	return EntityResult{Entity: en, Result: res}, nil
}

// updateEntity reads entity id in a write transaction, lets change edit it, and
// stores it; merged entities cannot be changed.
func (s *Service) updateEntity(ctx context.Context, user factbase.UserID, id string, change func(en *factbase.Entity) error) (factbase.Entity, error) {
	if _, err := factbase.ParseUserID(string(user)); err != nil {
		return factbase.Entity{}, err
	}
	var out factbase.Entity
	_, err := s.core.ApplyWith(ctx, user, nil, func(w *core.Writer) error {
		en, err := w.Tx().Entity(ctx, id)
		if err != nil {
			return err
		}
		if en.MergedInto != "" {
			return factbase.Errorf(factbase.ECONFLICT, "entity %s was merged into %s; change that one", id, en.MergedInto)
		}
		if err := change(&en); err != nil {
			return err
		}
		if en, err = CheckEntity(en); err != nil {
			return err
		}
		en.UpdatedAt = w.Tx().Now()
		out = en
		w.TouchSheet() // the sheet names the entity
		return w.Tx().PutEntity(ctx, en)
	})
	return out, err
}

// RenameEntity gives an entity a new display name; the old one becomes an alias.
func (s *Service) RenameEntity(ctx context.Context, user factbase.UserID, id, name string) (factbase.Entity, error) {
	name, err := entityName("entity name", name, true)
	if err != nil {
		return factbase.Entity{}, err
	}
	return s.updateEntity(ctx, user, id, func(en *factbase.Entity) error {
		if en.Name != "" && !strings.EqualFold(en.Name, name) && !entityHas(en.Aliases, en.Name) {
			en.Aliases = append(en.Aliases, en.Name)
		}
		en.Name = name
		return nil
	})
}

// AddAlias adds another name an entity goes by.
func (s *Service) AddAlias(ctx context.Context, user factbase.UserID, id, alias string) (factbase.Entity, error) {
	alias, err := entityName("alias", alias, true)
	if err != nil {
		return factbase.Entity{}, err
	}
	return s.updateEntity(ctx, user, id, func(en *factbase.Entity) error {
		if !entityHas(en.Aliases, alias) && !strings.EqualFold(en.Name, alias) {
			en.Aliases = append(en.Aliases, alias)
		}
		return nil
	})
}

// MergeEntities merges entity from into entity into: from's current facts move to
// into (a single-valued fact only where it is newer), from's names become aliases of
// into, its pending conflicts follow, and from is kept, marked merged, with the
// history of its facts.
func (s *Service) MergeEntities(ctx context.Context, user factbase.UserID, into, from string) (EntityResult, error) {
	if _, err := factbase.ParseUserID(string(user)); err != nil {
		return EntityResult{}, err
	}
	if into == from {
		return EntityResult{}, factbase.Errorf(factbase.EINVALID, "cannot merge an entity into itself")
	}
	var (
		src, dst   factbase.Entity
		srcFacts   []factbase.Fact
		dstCurrent = map[string]factbase.Fact{}
	)
	err := s.core.View(ctx, user, func(tx factbase.ReadTx) error {
		var err error
		if src, err = tx.Entity(ctx, from); err != nil {
			return err
		}
		if dst, err = tx.Entity(ctx, into); err != nil {
			return err
		}
		for _, en := range []factbase.Entity{src, dst} {
			if en.MergedInto != "" {
				return factbase.Errorf(factbase.ECONFLICT, "entity %s was already merged into %s", en.ID, en.MergedInto)
			}
		}
		if srcFacts, err = tx.Facts(ctx, factbase.FactFilter{Subject: src.Subject()}); err != nil {
			return err
		}
		dfs, err := tx.Facts(ctx, factbase.FactFilter{Subject: dst.Subject()})
		for _, f := range dfs {
			if f.Cardinality == factbase.One {
				dstCurrent[f.Key] = f
			}
		}
		return err
	})
	if err != nil {
		return EntityResult{}, err
	}
	ops := entityMoveOps(srcFacts, dst.Subject(), dstCurrent)
	relation, role := dst.Relation, dst.Role
	if moreSpecific(src.Relation, dst.Relation) {
		// "best friend" merged into "friend" stays a best friend.
		relation, role = src.Relation, src.Role
		ops = append(ops, RelationOp(factbase.Entity{ID: dst.ID, Name: dst.Name, Relation: relation}))
	}
	res, err := s.core.ApplyWith(ctx, user, ops, func(w *core.Writer) error {
		s2, err := w.Tx().Entity(ctx, from)
		if err != nil {
			return err
		}
		d2, err := w.Tx().Entity(ctx, into)
		if err != nil {
			return err
		}
		if !s2.UpdatedAt.Equal(src.UpdatedAt) || !d2.UpdatedAt.Equal(dst.UpdatedAt) {
			return factbase.Errorf(factbase.ECONFLICT, "the entities changed during the merge; try again")
		}
		for _, n := range append([]string{src.Name}, src.Aliases...) {
			if n != "" && !strings.EqualFold(n, d2.Name) && !entityHas(d2.Aliases, n) {
				d2.Aliases = append(d2.Aliases, n)
			}
		}
		if d2.Name == "" {
			d2.Name = src.Name
		}
		if d2.Relation == "" || relation != dst.Relation {
			d2.Relation, d2.Role = relation, role
		}
		for k, v := range src.Attributes {
			if _, ok := d2.Attributes[k]; !ok {
				if d2.Attributes == nil {
					d2.Attributes = map[string]string{}
				}
				d2.Attributes[k] = v
			}
		}
		if len(d2.Aliases) > factbase.MaxAliases {
			d2.Aliases = d2.Aliases[:factbase.MaxAliases]
		}
		s2.MergedInto = d2.ID
		d2.UpdatedAt, s2.UpdatedAt = w.Tx().Now(), w.Tx().Now()
		if err := w.Tx().PutEntity(ctx, d2); err != nil {
			return err
		}
		if err := w.Tx().PutEntity(ctx, s2); err != nil {
			return err
		}
		cs, err := w.Tx().Conflicts(ctx, factbase.ConflictFilter{Status: factbase.ConflictPending, Subject: src.Subject()})
		if err != nil {
			return err
		}
		for _, c := range cs {
			c.Subject, c.Proposed.Subject = d2.Subject(), d2.Subject()
			if err := w.Tx().PutConflict(ctx, c); err != nil {
				return err
			}
		}
		dst, src = d2, s2
		dst.UpdatedAt, src.UpdatedAt = w.Tx().Now(), w.Tx().Now()
		return nil
	})
	if err != nil {
		return EntityResult{}, err
	}
	res.Facts = nil
	s.core.Audit(ctx, factbase.AuditEntityMerge, user, into+" <- "+from, map[string]int{"moved": res.Stored + res.Updated})
	return EntityResult{Entity: dst, Result: res, Other: &src}, nil
}

// SplitEntity moves the chosen current facts of entity id to a new entity (given by
// name, role, relation, aliases): each is written under the new entity and retracted
// from the old one, which keeps it in history.
func (s *Service) SplitEntity(ctx context.Context, user factbase.UserID, id string, factIDList []string, in factbase.Entity) (EntityResult, error) {
	if _, err := factbase.ParseUserID(string(user)); err != nil {
		return EntityResult{}, err
	}
	if len(factIDList) == 0 {
		return EntityResult{}, factbase.Errorf(factbase.EINVALID, "a split needs the ids of the facts to move")
	}
	en, err := s.newEntity(user, in)
	if err != nil {
		return EntityResult{}, err
	}
	var (
		src   factbase.Entity
		moved []factbase.Fact
	)
	err = s.core.View(ctx, user, func(tx factbase.ReadTx) error {
		if src, err = tx.Entity(ctx, id); err != nil {
			return err
		}
		if src.MergedInto != "" {
			return factbase.Errorf(factbase.ECONFLICT, "entity %s was merged into %s; split that one", id, src.MergedInto)
		}
		seen := map[string]bool{}
		for _, fid := range factIDList {
			if seen[fid] {
				continue
			}
			seen[fid] = true
			f, err := tx.Fact(ctx, fid)
			if err != nil {
				return err
			}
			if f.Subject != src.Subject() {
				return factbase.Errorf(factbase.EINVALID, "fact %s is not about entity %s", fid, id)
			}
			if !f.Current {
				return factbase.Errorf(factbase.ECONFLICT, "fact %s is not current; only current facts move", fid)
			}
			moved = append(moved, f)
		}
		return nil
	})
	if err != nil {
		return EntityResult{}, err
	}
	ops := entityMoveOps(moved, en.Subject(), nil)
	if en.Relation != "" {
		has := false
		for _, f := range moved {
			has = has || f.Key == factbase.KeyRelation
		}
		if !has {
			ops = append(ops, RelationOp(en))
		}
	}
	// The names the new entity goes by are no longer the source's aliases.
	out, err := s.putEntityWith(ctx, user, en, ops, func(w *core.Writer) error {
		cur, err := w.Tx().Entity(ctx, id)
		if err != nil {
			return err
		}
		if !cur.UpdatedAt.Equal(src.UpdatedAt) {
			return factbase.Errorf(factbase.ECONFLICT, "entity %s changed during the split; try again", id)
		}
		keep := cur.Aliases[:0:0]
		for _, a := range cur.Aliases {
			if !strings.EqualFold(a, en.Name) && !entityHas(en.Aliases, a) {
				keep = append(keep, a)
			}
		}
		if len(keep) == len(cur.Aliases) {
			return nil
		}
		cur.Aliases, cur.UpdatedAt = keep, w.Tx().Now()
		src = cur
		return w.Tx().PutEntity(ctx, cur)
	})
	if err != nil {
		return EntityResult{}, err
	}
	out.Other = &src
	s.core.Audit(ctx, factbase.AuditEntitySplit, user, id+" -> "+out.Entity.ID, map[string]int{"moved": len(moved)})
	return out, nil
}

// DeleteEntity erases an entity completely: every version of its facts (and of the
// facts of entities merged into it), its conflicts, and the entities themselves.
func (s *Service) DeleteEntity(ctx context.Context, user factbase.UserID, id string) (EntityResult, error) {
	if _, err := factbase.ParseUserID(string(user)); err != nil {
		return EntityResult{}, err
	}
	var (
		target factbase.Entity
		gone   []factbase.Entity
		ops    []factbase.Op
	)
	err := s.core.View(ctx, user, func(tx factbase.ReadTx) error {
		var err error
		if target, err = tx.Entity(ctx, id); err != nil {
			return err
		}
		all, err := tx.Entities(ctx, factbase.EntityFilter{})
		if err != nil {
			return err
		}
		gone = append([]factbase.Entity{target}, entitiesMergedInto(all, id)...)
		for _, g := range gone {
			fs, err := tx.Facts(ctx, factbase.FactFilter{Subject: g.Subject(), History: true})
			if err != nil {
				return err
			}
			keys := map[string]bool{}
			for _, f := range fs {
				if !keys[f.Key] {
					keys[f.Key] = true
					ops = append(ops, factbase.Op{Kind: factbase.OpDelete, Fact: factbase.Fact{Subject: g.Subject(), Key: f.Key}})
				}
			}
		}
		return nil
	})
	if err != nil {
		return EntityResult{}, err
	}
	res, err := s.core.ApplyWith(ctx, user, ops, func(w *core.Writer) error {
		var facts []factbase.Fact
		for _, g := range gone {
			// anything written about them since the read would survive: refuse
			fs, err := w.Tx().Facts(ctx, factbase.FactFilter{Subject: g.Subject(), History: true})
			if err != nil {
				return err
			}
			facts = append(facts, fs...)
			if _, err := w.Tx().DeleteEntity(ctx, g.ID); err != nil {
				return err
			}
		}
		if len(facts) > 0 {
			return factbase.Errorf(factbase.ECONFLICT, "facts about %s were written during the delete; try again", personal.Label(target))
		}
		return nil
	})
	if err != nil {
		return EntityResult{}, err
	}
	res.Facts = nil
	s.core.Audit(ctx, factbase.AuditEntityDelete, user, id, map[string]int{"facts": res.Deleted})
	return EntityResult{Entity: target, Result: res}, nil
}
