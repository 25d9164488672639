package server

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory/chat"
	"github.com/factbase/factbase/memory/people"
)

// messageBody is the body of a message.
type messageBody struct {
	Text string `json:"text" minLength:"1" maxLength:"16384" doc:"What the user said, as plain text (at most 16 KiB)." example:"My favorite cryptos are BTC, ETH and XMR."`
	// Time, Session and Speaker describe the message; they are optional.
	Time    *time.Time `json:"time,omitempty" doc:"When the message was said (RFC 3339); temporal markers such as \"next Friday\" resolve against it. Default: now."`
	Session string     `json:"session,omitempty" maxLength:"200" doc:"The conversation the message belongs to; a communication preference stated in enough different sessions becomes durable. Default: the message's UTC date."`
	Speaker string     `json:"speaker,omitempty" enum:"user,assistant" doc:"Who wrote the message. Default user."`
}

// sayBody is the body of a message to say: its text, or a conversation's turns.
type sayBody struct {
	Text     string `json:"text,omitempty" maxLength:"16384" doc:"What the user said, as plain text (at most 16 KiB). Give text or messages." example:"My favorite cryptos are BTC, ETH and XMR."`
	Messages []turn `json:"messages,omitempty" maxItems:"100" doc:"A conversation's turns instead of text, as chat APIs write them: each user turn is said as the user's, each assistant turn as the assistant's (it never makes facts about the assistant), system and tool turns are skipped. At most 100 turns."`
	// Time, Session and Speaker describe the message; they are optional.
	Time    *time.Time `json:"time,omitempty" doc:"When the message was said (RFC 3339); temporal markers such as \"next Friday\" resolve against it. Default: now."`
	Session string     `json:"session,omitempty" maxLength:"200" doc:"The conversation the message belongs to; a communication preference stated in enough different sessions becomes durable. Default: the message's UTC date."`
	Speaker string     `json:"speaker,omitempty" enum:"user,assistant" doc:"Who wrote the text. Default user. (Turns name their own role.)"`
}

// turn is one turn of a conversation.
type turn struct {
	Role    string `json:"role" enum:"user,assistant,system,tool" doc:"Who wrote the turn."`
	Content string `json:"content" maxLength:"16384" doc:"What the turn says, as plain text (at most 16 KiB)."`
}

type sayInput struct {
	User string `path:"user" doc:"The user's id, a UUID." example:"0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c0d"`
	Body sayBody
}

// questionBody is the body of a question.
type questionBody struct {
	Text string     `json:"text" minLength:"1" maxLength:"16384" doc:"The user's question, as plain text (at most 16 KiB)." example:"What are my favorite cryptos?"`
	Time *time.Time `json:"time,omitempty" doc:"When the question was asked (RFC 3339); \"on Friday\" and \"next week\" count from it. Default: now."`
}

type messageInput struct {
	User string `path:"user" doc:"The user's id, a UUID." example:"0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c0d"`
	Body messageBody
}

type questionInput struct {
	User string `path:"user" doc:"The user's id, a UUID." example:"0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c0d"`
	Body questionBody
}

func (s *Server) registerMessages() {
	huma.Register(s.api, s.op("say-message", http.MethodPost, "/v1/users/{user}/messages", tagMessages,
		"Remember what a message states",
		`Routes a user's message with the rule-based router: statements about the user's own
facts and favorites are written through the one write path; questions, statements about
others and negations write nothing. The response is the same as "factbase say --json":
the route, the ops, what the write did (stored, updated, duplicates with their rank,
rank mutations) and a one-sentence reply; all of it bounded by the message (at most
16 KiB).`), s.say)
	huma.Register(s.api, s.op("ask-question", http.MethodPost, "/v1/users/{user}/questions", tagMessages,
		"Answer a question from stored facts",
		`The one answer path: answers a question about the user, the people they mention,
their lists, earlier values, a time window or their episodes, deterministically from
what is stored (docs/messages.md lists the kinds). It never guesses: when nothing
stored answers, the reply says "I don't know" and items is empty. Each item names the
fact it came from (id, key, about). Every answer is bounded: a list's members at most
1000 with the list's total (a current list 100, or as many as asked), a group at most
100 people, other answers the facts of the people the question names (500 each) and
recall's 100 hits. The response is the same as "factbase ask --json".`), s.ask)
}

func (s *Server) say(ctx context.Context, in *sayInput) (*output[chat.SayResult], error) {
	b := in.Body
	info := people.MessageInfo{Session: b.Session, Speaker: b.Speaker}
	if b.Time != nil {
		info.Time = *b.Time
	}
	return forUser(ctx, in.User, func(u factbase.UserID) (chat.SayResult, error) {
		switch {
		case b.Text != "" && len(b.Messages) > 0:
			return chat.SayResult{}, huma.Error422UnprocessableEntity("give text or messages, not both",
				&huma.ErrorDetail{Location: "body", Message: "expected text or messages, not both"})
		case len(b.Messages) == 0:
			if strings.TrimSpace(b.Text) == "" {
				return chat.SayResult{}, huma.Error422UnprocessableEntity("the message is empty: give text or messages",
					&huma.ErrorDetail{Location: "body", Message: "expected a non-empty text or messages"})
			}
			return s.opts.Engine.Chat.Say(people.WithMessage(ctx, info), u, b.Text)
		}
		return s.sayTurns(ctx, u, info, b.Messages)
	})
}

// sayTurns says a conversation's user and assistant turns in order, each in its own
// write, and returns what they did together: the ops, the summed counts, the
// replies.
func (s *Server) sayTurns(ctx context.Context, u factbase.UserID, info people.MessageInfo, turns []turn) (chat.SayResult, error) {
	out := chat.SayResult{Ops: []chat.OpView{}, Result: factbase.Result{Duplicates: []factbase.Duplicate{}, Mutations: []factbase.Mutation{}}}
	var replies []string
	said := 0
	for i, t := range turns {
		switch t.Role {
		case "system", "tool":
			continue
		}
		if strings.TrimSpace(t.Content) == "" {
			continue
		}
		ti := info
		ti.Speaker = t.Role
		res, err := s.opts.Engine.Chat.Say(people.WithMessage(ctx, ti), u, t.Content)
		if err != nil {
			return out, fmt.Errorf("turn %d: %w", i+1, err)
		}
		said++
		out.Route = res.Route
		out.Ops = append(out.Ops, res.Ops...)
		out.Result.Stored += res.Result.Stored
		out.Result.Updated += res.Result.Updated
		out.Result.Retracted += res.Result.Retracted
		out.Result.Deleted += res.Result.Deleted
		out.Result.Duplicates = append(out.Result.Duplicates, res.Result.Duplicates...)
		out.Result.Mutations = append(out.Result.Mutations, res.Result.Mutations...)
		out.Skipped = append(out.Skipped, res.Skipped...)
		if res.Reply != "" && res.Reply != "Nothing to remember in that message." {
			replies = append(replies, res.Reply)
		}
	}
	if said == 0 {
		return out, factbase.Errorf(factbase.EINVALID, "the conversation has no user or assistant turn with content")
	}
	out.Reply = strings.Join(replies, " ")
	if out.Reply == "" {
		out.Reply = "Nothing to remember in that conversation."
	}
	return out, nil
}

func (s *Server) ask(ctx context.Context, in *questionInput) (*output[chat.AskResult], error) {
	var info people.MessageInfo
	if in.Body.Time != nil {
		info.Time = *in.Body.Time
	}
	return forUser(ctx, in.User, func(u factbase.UserID) (chat.AskResult, error) {
		return s.opts.Engine.Chat.Ask(people.WithMessage(ctx, info), u, in.Body.Text)
	})
}
