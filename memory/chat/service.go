// Package chat is the engine's conversation service: Say reads a user's message and
// writes what it states (favorites, personal facts, the people it names), Ask
// answers a question from what is stored, deterministically, and Recall assembles
// what bears on a question into a prompt block.
//
// Its door is Service. It plans with the rules (packages router, personal, canon),
// calls the people and retrieve services through theirs, and writes through the
// engine core.
package chat

import (
	"context"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/canon"
	"github.com/factbase/factbase/memory/core"
	"github.com/factbase/factbase/memory/people"
	"github.com/factbase/factbase/memory/retrieve"
)

// Options configure the chat service. The zero value is usable.
type Options struct {
	// Canon canonicalises favorites topics. Default: canon.New with the built-in
	// aliases, the core's embedder for its similarity step when it has one, and
	// TopicTeacher; any of these hooks also turns KnownTopics on.
	Canon *canon.Canonicalizer
	// TopicTeacher is the canonicalizer's teacher (a model) for topics no cheaper
	// step settles; nil: no teacher. Used only when Canon is nil.
	TopicTeacher factbase.Teacher
	// KnownTopics passes the user's existing list topics to the canonicalizer, which
	// needs them only for its similarity and teacher steps. Default false.
	KnownTopics bool
	// Planner, when set, is Ask's fallback for a question no rule understood: it names
	// the key asked about, and Ask answers from it (planner.go). nil (the default):
	// such a question gets the usual reply, and no model is called.
	Planner factbase.Planner
}

// Service is the chat service. It is safe for concurrent use.
type Service struct {
	core     *core.Engine
	people   *people.Service
	retrieve *retrieve.Service
	canon    *canon.Canonicalizer
	opts     Options
}

// New returns the chat service over an engine core and the services it calls.
func New(c *core.Engine, p *people.Service, r *retrieve.Service, o Options) *Service {
	if o.Canon == nil {
		co := canon.Options{}
		if o.TopicTeacher != nil {
			co.Teach = o.TopicTeacher.Teach
		}
		if emb := c.Embedder(); emb != nil {
			co.Embed = func(ctx context.Context, text string) ([]float32, error) {
				v, err := emb.Embed(ctx, []string{text})
				if err != nil {
					return nil, err
				}
				return v[0], nil
			}
		}
		o.Canon = canon.New(co)
		// The similarity and teacher steps compare with the user's own topics.
		o.KnownTopics = o.KnownTopics || co.Embed != nil || co.Teach != nil
	}
	return &Service{core: c, people: p, retrieve: r, canon: o.Canon, opts: o}
}

// canonicalized reports a topic decision to the core's observer.
func (s *Service) canonicalized(c Canonical) {
	if o := s.core.Observer(); o != nil {
		o.Canonicalized(c.Method, c.Confidence)
	}
}

// referenceAnswers records a reference, source "answer", for every fact an answer
// used.
func (s *Service) referenceAnswers(ctx context.Context, user factbase.UserID, answers []Answer) error {
	var ids []string
	for _, a := range answers {
		for _, it := range a.Items {
			ids = append(ids, it.ID)
		}
	}
	return s.core.ReferenceAnswer(ctx, user, ids)
}
