package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory/core"
	"github.com/factbase/factbase/memory/people"
	"github.com/factbase/factbase/personal"
)

const entitiesUsage = `Usage:
  factbase entities list   [flags]
  factbase entities get    [flags] ENTITY
  factbase entities create [flags] NAME
  factbase entities rename [flags] ENTITY NEW-NAME
  factbase entities alias  [flags] ENTITY ALIAS
  factbase entities merge  [flags] INTO FROM
  factbase entities split  [flags] ENTITY FACT-ID... --name NAME
  factbase entities delete [flags] ENTITY

Entities are the people (and pets) a user talks about; "factbase say" creates
them from messages ("my son Leo is 8"). ENTITY is an id, or a name or alias
that exactly one entity has. get shows the entity with its facts (--history:
every version, merged entities' included). merge moves FROM's facts to INTO
(history kept, FROM's names become aliases); split moves the chosen facts to a
new entity; delete erases the entity and every version of its facts.
`

// entityJSON is an entity in JSON output.
type entityJSON struct {
	ID         string            `json:"id"`
	Name       string            `json:"name"`
	Role       string            `json:"role"`
	Relation   string            `json:"relation,omitempty"`
	Aliases    []string          `json:"aliases"`
	Attributes map[string]string `json:"attributes,omitempty"`
	MergedInto string            `json:"merged_into,omitempty"`
}

func entityOut(e factbase.Entity) entityJSON {
	aliases := e.Aliases
	if aliases == nil {
		aliases = []string{}
	}
	return entityJSON{ID: e.ID, Name: e.Name, Role: string(e.Role), Relation: e.Relation, Aliases: aliases,
		Attributes: e.Attributes, MergedInto: e.MergedInto}
}

func (m *Main) runEntities(ctx context.Context, args []string) error {
	sub, want, err := m.pickSubcommand(args, "entities", entitiesUsage, subcommand{"list", 0}, subcommand{"get", 1},
		subcommand{"create", 1}, subcommand{"rename", 2}, subcommand{"alias", 2}, subcommand{"merge", 2}, subcommand{"split", -2}, subcommand{"delete", 1})
	if sub == "" {
		return err
	}
	var (
		c                       common
		all, history            bool
		role, relation, aliases string
		name                    string
		offset, limit           int
	)
	fs := m.flags("entities "+sub, &c, true)
	switch sub {
	case "list":
		fs.BoolVar(&all, "all", false, "include entities merged into others")
		fs.IntVar(&limit, "limit", core.DefaultPageSize, fmt.Sprintf("at most this many (up to %d)", core.MaxPageSize))
		fs.IntVar(&offset, "offset", 0, "skip this many")
	case "get":
		fs.BoolVar(&history, "history", false, "every version of the facts, merged entities' included")
		fs.IntVar(&limit, "limit", core.DefaultPageSize, fmt.Sprintf("at most this many facts (up to %d)", core.MaxPageSize))
		fs.IntVar(&offset, "offset", 0, "skip this many facts")
	case "create", "split":
		fs.StringVar(&role, "role", "other", "partner, child, parent, sibling, friend, colleague, pet, service_provider or other")
		fs.StringVar(&relation, "relation", "", "the relation in words (son, wife, accountant)")
		fs.StringVar(&aliases, "aliases", "", "comma-separated other names")
		if sub == "split" {
			fs.StringVar(&name, "name", "", "the new entity's name")
		}
	}
	if err := parse(fs, args[1:]); err != nil {
		return err
	}
	if !arity(want, fs.NArg()) {
		return usagef("entities %s: wrong number of arguments\n\n%s", sub, entitiesUsage)
	}
	user, e, closeFn, err := m.openUser(ctx, &c)
	if err != nil {
		return err
	}
	defer closeFn()
	find := func(ref string) (factbase.Entity, error) { return e.People.FindEntity(ctx, user, ref) }
	a := fs.Args()
	switch sub {
	case "list":
		p, err := e.People.Entities(ctx, user, all, offset, limit)
		if err != nil {
			return err
		}
		return m.print(&c, map[string]any{"entities": mapEach(p.Entities, entityOut), "more": p.More}, func() error {
			err := printTable(m, "No entities.", "ID\tNAME\tROLE\tRELATION\tALIASES", p.Entities, func(en factbase.Entity) string {
				n := en.Name
				if en.MergedInto != "" {
					n += " (merged into " + en.MergedInto + ")"
				}
				return fmt.Sprintf("%s\t%s\t%s\t%s\t%s", en.ID, n, en.Role, en.Relation, strings.Join(en.Aliases, ", "))
			})
			m.printNext(p.More, offset+len(p.Entities))
			return err
		})
	case "get":
		en, err := find(a[0])
		if err != nil {
			return err
		}
		v, err := e.People.Entity(ctx, user, en.ID, history, offset, limit)
		if err != nil {
			return err
		}
		return m.print(&c, struct {
			entityJSON
			Facts  []factJSON `json:"facts"`
			More   bool       `json:"more"`
			Merged []string   `json:"merged,omitempty"`
		}{entityOut(v.Entity), toJSONs(v.Facts), v.More, v.Merged}, func() error {
			fmt.Fprintf(m.Stdout, "%s  %s (%s", v.ID, personal.Label(v.Entity), v.Role)
			if len(v.Aliases) > 0 {
				fmt.Fprintf(m.Stdout, "; also %s", strings.Join(v.Aliases, ", "))
			}
			fmt.Fprintln(m.Stdout, ")")
			err := writeTable(m.Stdout, "", v.Facts, func(f factbase.Fact) string {
				cur := ""
				if !f.Current {
					cur = "(past)"
				}
				return fmt.Sprintf("  %s\t%s\t%s\t%s", f.Key, f.Value, cur, f.ID)
			})
			m.printNext(v.More, offset+len(v.Facts))
			return err
		})
	case "create":
		r, err := e.People.CreateEntity(ctx, user, factbase.Entity{Name: a[0], Role: factbase.Role(role), Relation: relation, Aliases: splitList(aliases)})
		if err != nil {
			return err
		}
		return m.entityDone(c, r, "Created")
	case "rename", "alias":
		en, err := find(a[0])
		if err != nil {
			return err
		}
		var out factbase.Entity
		if sub == "rename" {
			out, err = e.People.RenameEntity(ctx, user, en.ID, a[1])
		} else {
			out, err = e.People.AddAlias(ctx, user, en.ID, a[1])
		}
		if err != nil {
			return err
		}
		return m.entityDone(c, people.EntityResult{Entity: out}, map[string]string{"rename": "Renamed", "alias": "Updated"}[sub])
	case "merge":
		into, err := find(a[0])
		if err != nil {
			return err
		}
		from, err := find(a[1])
		if err != nil {
			return err
		}
		r, err := e.People.MergeEntities(ctx, user, into.ID, from.ID)
		if err != nil {
			return err
		}
		return m.entityDone(c, r, fmt.Sprintf("Merged %s into", personal.Label(from)))
	case "split":
		en, err := find(a[0])
		if err != nil {
			return err
		}
		r, err := e.People.SplitEntity(ctx, user, en.ID, a[1:], factbase.Entity{Name: name, Role: factbase.Role(role), Relation: relation, Aliases: splitList(aliases)})
		if err != nil {
			return err
		}
		return m.entityDone(c, r, fmt.Sprintf("Split %d facts from %s to", len(a)-1, personal.Label(en)))
	case "delete":
		en, err := find(a[0])
		if err != nil {
			return err
		}
		r, err := e.People.DeleteEntity(ctx, user, en.ID)
		if err != nil {
			return err
		}
		return m.entityDone(c, r, fmt.Sprintf("Deleted (%d fact rows erased)", r.Result.Deleted))
	}
	return nil
}

// entityDone prints the outcome of an entity change.
func (m *Main) entityDone(c common, r people.EntityResult, verb string) error {
	out := struct {
		Entity entityJSON      `json:"entity"`
		Result factbase.Result `json:"result"`
	}{entityOut(r.Entity), r.Result}
	return m.printLine(&c, out, fmt.Sprintf("%s %s (%s, %s).", verb, personal.Label(r.Entity), r.Entity.Role, r.Entity.ID))
}
