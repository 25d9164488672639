package main

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/core"
)

const listUsage = `Usage:
  factbase list show   [flags] KEY
  factbase list add    [flags] KEY VALUE...
  factbase list rank   [flags] KEY VALUE RANK
  factbase list remove [flags] KEY VALUE

Ranked lists such as favorites.crypto: add appends (a value already present is
reported as a duplicate with its rank), rank moves or inserts a value at a rank,
remove takes it out and closes the gap.

KEY is read as say reads the topic: favorites.teas is favorites.tea and
favorites.crypto favorites.cryptocurrency, so that both keep one list of a topic.
A key the subject already has a list of is taken as it is.
`

// listItem is one member of a list in JSON output.
type listItem struct {
	Rank  int    `json:"rank"`
	Value string `json:"value"`
	ID    string `json:"id"`
}

func (m *Main) runList(ctx context.Context, args []string) error {
	if done, err := m.familyHelp(args, listUsage, "list needs a subcommand: show, add, rank or remove"); done {
		return err
	}
	var c common
	sub := args[0]
	fs := m.flags("list "+sub, &c, true)
	var (
		offset, limit int
		subject       string
	)
	fs.StringVar(&subject, "subject", factbase.SubjectUser, "whose list: user, or entity:<id>")
	if sub == "show" {
		fs.IntVar(&offset, "offset", 0, "members to skip")
		fs.IntVar(&limit, "limit", core.DefaultPageSize, fmt.Sprintf("members to show (at most %d)", core.MaxPageSize))
	}
	if err := parse(fs, args[1:]); err != nil {
		return err
	}
	rest := fs.Args()
	want := map[string]func(int) bool{
		"show":   func(n int) bool { return n == 1 },
		"add":    func(n int) bool { return n >= 2 },
		"rank":   func(n int) bool { return n == 3 },
		"remove": func(n int) bool { return n == 2 },
	}
	ok, known := want[sub]
	if !known {
		return usagef("unknown list subcommand %q (show, add, rank, remove)", sub)
	}
	if !ok(len(rest)) {
		return usagef("wrong number of arguments for list %s\n%s", sub, listUsage)
	}
	user, e, closeFn, err := m.openUser(ctx, &c)
	if err != nil {
		return err
	}
	defer closeFn()
	key, err := m.listKey(ctx, e, user, subject, rest[0])
	if err != nil {
		return err
	}
	if sub == "show" {
		p, err := e.List(ctx, user, subject, key, offset, limit, nil)
		if err != nil {
			return err
		}
		return m.printList(&c, p)
	}
	var ops []factbase.Op
	switch sub {
	case "add":
		for _, v := range rest[1:] {
			ops = append(ops, factbase.Op{Kind: factbase.OpSet, Fact: listFact(subject, key, v, 0)})
		}
	case "rank":
		rank, err := strconv.Atoi(rest[2])
		if err != nil || rank < 1 {
			return factbase.Errorf(factbase.EINVALID, "rank %q is not a whole number of at least 1", rest[2])
		}
		ops = append(ops, factbase.Op{Kind: factbase.OpSet, Fact: listFact(subject, key, rest[1], rank)})
	case "remove":
		ops = append(ops, factbase.Op{Kind: factbase.OpRemove, Fact: factbase.Fact{Subject: subject, Key: key, Value: rest[1]}})
	}
	if factbase.DefaultCardinalities().Of(key) != factbase.Ranked {
		return factbase.Errorf(factbase.EINVALID, "%s is not a ranked list (ranked lists are favorites.*)", key)
	}
	res, err := e.Apply(ctx, user, ops)
	if err != nil {
		return err
	}
	return m.printResult(&c, res)
}

// listKey returns the list a key typed by a person names: the key itself when the
// subject has a list of it, else, for a favorites key, the key say files that topic
// under ("favorites.teas" is favorites.tea, "favorites.crypto"
// favorites.cryptocurrency), so that the CLI and say never keep two lists of one
// topic.
func (m *Main) listKey(ctx context.Context, e *memory.Engine, user factbase.UserID, subject, key string) (string, error) {
	topic, ok := strings.CutPrefix(key, factbase.FavoritesPrefix)
	if !ok || topic == "" {
		return key, nil
	}
	keys, err := e.Keys(ctx, user, subject, key)
	if err != nil || slices.Contains(keys, key) {
		return key, err
	}
	cn, err := e.Chat.TopicKey(ctx, user, strings.ReplaceAll(topic, "_", " "))
	if err != nil || cn.Key == factbase.FavoritesPrefix {
		return key, err
	}
	return cn.Key, nil
}

func listFact(subject, key, value string, rank int) factbase.Fact {
	return factbase.Fact{Subject: subject, Key: key, Value: value, Rank: rank, Type: "preference",
		Category: factbase.Core, Source: factbase.Source{Kind: factbase.SourceManual}, Extractor: "cli"}
}

func (m *Main) printList(c *common, p core.ListPage) error {
	items := mapEach(p.Items, func(f factbase.Fact) listItem { return listItem{Rank: f.Rank, Value: f.Value, ID: f.ID} })
	page := struct {
		Key    string     `json:"key"`
		Items  []listItem `json:"items"`
		Total  int        `json:"total"`
		Offset int        `json:"offset"`
	}{p.Key, items, p.Total, p.Offset}
	return m.print(c, page, func() error {
		if p.Total == 0 {
			fmt.Fprintf(m.Stdout, "%s is empty.\n", p.Key)
			return nil
		}
		fmt.Fprintf(m.Stdout, "%s (%d)\n", p.Key, p.Total)
		for _, f := range p.Items {
			fmt.Fprintf(m.Stdout, "  #%d  %s\n", f.Rank, f.Value)
		}
		m.printMore("  ", p.Offset+len(p.Items), p.Total)
		return nil
	})
}

// printMore says how many items of a page's total are left after shown, and how to
// see them.
func (m *Main) printMore(indent string, shown, total int) {
	if shown < total {
		fmt.Fprintf(m.Stdout, "%s… %d more (use --offset %d)\n", indent, total-shown, shown)
	}
}

// printNext says, when more items follow a page, the offset that shows them.
func (m *Main) printNext(more bool, next int) {
	if more {
		fmt.Fprintf(m.Stdout, "… more follow (use --offset %d)\n", next)
	}
}

// describe renders a write result as sentences.
func describe(res factbase.Result) []string {
	var out []string
	for _, d := range res.Duplicates {
		if d.Rank > 0 {
			out = append(out, fmt.Sprintf("%s is already in %s at #%d.", d.Value, d.Key, d.Rank))
		} else {
			out = append(out, fmt.Sprintf("%s is already the value of %s.", d.Value, d.Key))
		}
	}
	for _, mu := range res.Mutations {
		switch mu.Action {
		case factbase.Move:
			out = append(out, fmt.Sprintf("Moved %s from #%d to #%d in %s.", mu.Value, mu.From, mu.To, mu.Key))
		case factbase.Insert, factbase.Append:
			out = append(out, fmt.Sprintf("Added %s to %s at #%d.", mu.Value, mu.Key, mu.To))
		case factbase.NoOp:
			out = append(out, fmt.Sprintf("%s is already at #%d in %s.", mu.Value, mu.To, mu.Key))
		case factbase.Remove:
			out = append(out, fmt.Sprintf("Removed %s (#%d) from %s.", mu.Value, mu.From, mu.Key))
		}
	}
	for _, f := range res.Facts {
		if f.Cardinality == factbase.Ranked || !f.Current {
			continue
		}
		dup := false
		for _, d := range res.Duplicates {
			dup = dup || d.FactID == f.ID
		}
		if !dup {
			out = append(out, fmt.Sprintf("Set %s = %s.", f.Key, f.Value))
		}
	}
	if res.Updated > 0 {
		out = append(out, fmt.Sprintf("%d earlier value(s) kept in history.", res.Updated))
	}
	if res.Retracted > 0 && len(res.Mutations) == 0 {
		out = append(out, fmt.Sprintf("Retracted %d fact(s).", res.Retracted))
	}
	if res.Deleted > 0 {
		out = append(out, fmt.Sprintf("Deleted %d fact row(s).", res.Deleted))
	}
	if len(out) == 0 {
		out = append(out, "Nothing changed.")
	}
	return out
}
