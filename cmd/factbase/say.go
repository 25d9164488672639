package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory/people"
)

// runSay implements "factbase say": a user's message through the rule router and
// the write path.
func (m *Main) runSay(ctx context.Context, args []string) error {
	var (
		c                    common
		at, session, speaker string
	)
	fs := m.flags("say", &c, true)
	fs.StringVar(&at, "time", "", "when the message was said (RFC 3339); \"next Friday\" resolves against it (default now)")
	fs.StringVar(&session, "session", "", "the conversation the message belongs to (default: the message's UTC date)")
	fs.StringVar(&speaker, "speaker", "user", "who wrote the message: user or assistant")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: factbase say [flags] \"MESSAGE\"\n\nRemember what a user's message states (favorites, email, name, city, work, birthday).\n\n")
		fs.PrintDefaults()
	}
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usagef("say needs the message as its argument")
	}
	user, err := c.userID()
	if err != nil {
		return err
	}
	e, closeFn, err := m.openEngine(ctx, &c)
	if err != nil {
		return err
	}
	defer closeFn()
	info := people.MessageInfo{Session: session, Speaker: speaker}
	if speaker != "user" && speaker != "assistant" {
		return usagef("--speaker %q is not user or assistant", speaker)
	}
	if at != "" {
		t, err := time.Parse(time.RFC3339Nano, at)
		if err != nil {
			return factbase.Errorf(factbase.EINVALID, "--time %q is not an RFC 3339 time (e.g. 2026-01-02T15:04:05Z)", at)
		}
		info.Time = t
	}
	res, err := e.Chat.Say(people.WithMessage(ctx, info), user, strings.Join(fs.Args(), " "))
	if err != nil {
		return err
	}
	if c.json {
		return m.printJSON(res)
	}
	fmt.Fprintln(m.Stdout, res.Reply)
	return nil
}

// runAsk implements "factbase ask": a question answered from stored facts, no model.
func (m *Main) runAsk(ctx context.Context, args []string) error {
	var c common
	fs := m.flags("ask", &c, true)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: factbase ask [flags] \"QUESTION\"\n\nAnswer a question about the user's own facts and favorites, deterministically.\n\n")
		fs.PrintDefaults()
	}
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usagef("ask needs the question as its argument")
	}
	user, err := c.userID()
	if err != nil {
		return err
	}
	e, closeFn, err := m.openEngine(ctx, &c)
	if err != nil {
		return err
	}
	defer closeFn()
	res, err := e.Chat.Ask(ctx, user, strings.Join(fs.Args(), " "))
	if err != nil {
		return err
	}
	if c.json {
		return m.printJSON(res)
	}
	fmt.Fprintln(m.Stdout, res.Reply)
	return nil
}
