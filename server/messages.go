package server

import (
	"context"
	"net/http"
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

func (s *Server) say(ctx context.Context, in *messageInput) (*output[chat.SayResult], error) {
	info := people.MessageInfo{Session: in.Body.Session, Speaker: in.Body.Speaker}
	if in.Body.Time != nil {
		info.Time = *in.Body.Time
	}
	return forUser(ctx, in.User, func(u factbase.UserID) (chat.SayResult, error) {
		return s.opts.Engine.Chat.Say(people.WithMessage(ctx, info), u, in.Body.Text)
	})
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
