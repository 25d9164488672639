package main

import (
	"context"

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
	setUsage(fs, "Usage: factbase say [flags] \"MESSAGE\"\n\nRemember what a user's message states (favorites, email, name, city, work, birthday).\n\n")
	text, user, e, closeFn, err := m.openText(ctx, fs, &c, args, "say needs the message as its argument")
	if err != nil {
		return err
	}
	defer closeFn()
	info := people.MessageInfo{Session: session, Speaker: speaker}
	if speaker != "user" && speaker != "assistant" {
		return usagef("--speaker %q is not user or assistant", speaker)
	}
	if at != "" {
		if info.Time, err = parseRFC3339("time", at); err != nil {
			return err
		}
	}
	res, err := e.Chat.Say(people.WithMessage(ctx, info), user, text)
	if err != nil {
		return err
	}
	return m.printLine(&c, res, res.Reply)
}

// runAsk implements "factbase ask": a question answered from stored facts, no model.
func (m *Main) runAsk(ctx context.Context, args []string) error {
	var (
		c  common
		at string
	)
	fs := m.flags("ask", &c, true)
	fs.StringVar(&at, "time", "", "when the question is asked (RFC 3339); \"on Friday\" counts from it (default now)")
	setUsage(fs, "Usage: factbase ask [flags] \"QUESTION\"\n\nAnswer a question about the user, the people they mention, their lists, earlier values,\ntimes and episodes from what is stored, deterministically; \"I don't know\" when nothing answers.\n\n")
	question, user, e, closeFn, err := m.openText(ctx, fs, &c, args, "ask needs the question as its argument")
	if err != nil {
		return err
	}
	defer closeFn()
	var info people.MessageInfo
	if at != "" {
		if info.Time, err = parseRFC3339("time", at); err != nil {
			return err
		}
	}
	res, err := e.Chat.Ask(people.WithMessage(ctx, info), user, question)
	if err != nil {
		return err
	}
	return m.printLine(&c, res, res.Reply)
}
