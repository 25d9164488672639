package server

import (
	"context"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory/core"
)

// factBody is the body of a fact write: key and value, and optionally how to read and
// weigh the fact.
type factBody struct {
	Key         string           `json:"key" minLength:"1" maxLength:"200" doc:"The fact's key: dotted words, e.g. contact.email or favorites.crypto." example:"contact.email"`
	Value       string           `json:"value" minLength:"1" maxLength:"4096" doc:"The value, as said; stored in its original spelling." example:"a@example.com"`
	Subject     string           `json:"subject,omitempty" maxLength:"200" doc:"Whose fact: user (the default), entity:<id>, or another subject."`
	Rank        int              `json:"rank,omitempty" minimum:"1" doc:"For a ranked list: place the value at this rank (move, insert or no-op). Omitted: append."`
	Cardinality string           `json:"cardinality,omitempty" enum:"one,many,ranked" doc:"Override the key's configured write semantics: one (latest wins), many (a set), ranked (an ordered list). Default: by key; favorites.* are ranked, everything else one."`
	ValueType   string           `json:"value_type,omitempty" enum:"string,number,bool,date,json" doc:"How to read the value. Default string."`
	Type        string           `json:"type,omitempty" maxLength:"100" doc:"The fact's type: contact, work, preference, schedule, ..." example:"contact"`
	Category    string           `json:"category,omitempty" enum:"core,technical,project,transient" doc:"The fact-sheet category. Default transient."`
	Confidence  float64          `json:"confidence,omitempty" minimum:"0" maximum:"1" doc:"Confidence 0..1. Default 1."`
	Text        string           `json:"text,omitempty" maxLength:"200" doc:"The fact as a sentence, at most 200 characters."`
	Scope       string           `json:"scope,omitempty" maxLength:"200" doc:"The workspace the fact holds in; empty: all."`
	Durability  string           `json:"durability,omitempty" enum:"durable,long,medium,short" doc:"How long the fact is expected to stay true."`
	Sensitivity string           `json:"sensitivity,omitempty" enum:"low,medium,high" doc:"How private the fact is."`
	SaidBy      string           `json:"said_by,omitempty" maxLength:"200" doc:"Who stated it: user, assistant or entity:<id>."`
	Source      *factbase.Source `json:"source,omitempty" doc:"Where the fact came from. Default {\"kind\": \"manual\"}."`
	ValidFrom   *time.Time       `json:"valid_from,omitempty" doc:"When the fact became true, if before now (RFC 3339)."`
}

type setFactInput struct {
	User string `path:"user" doc:"The user's id, a UUID." example:"0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c0d"`
	Body factBody
}

type listFactsInput struct {
	User          string    `path:"user" doc:"The user's id, a UUID." example:"0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c0d"`
	Key           string    `query:"key" doc:"Only this key." example:"contact.email"`
	Prefix        string    `query:"prefix" doc:"Only keys starting with this." example:"favorites."`
	Subject       string    `query:"subject" doc:"Only this subject (user, entity:<id>, ...). Default: every subject."`
	Category      string    `query:"category" enum:"core,technical,project,transient" doc:"Only this sheet category."`
	Type          string    `query:"type" doc:"Only this fact type."`
	MinConfidence float64   `query:"min_confidence" minimum:"0" maximum:"1" doc:"Only facts with at least this confidence."`
	History       bool      `query:"history" doc:"Include superseded, retracted and removed versions."`
	AsOf          time.Time `query:"as_of" doc:"Read as of a past time (RFC 3339): the facts recorded by then and valid then. Overrides history."`
	Newest        bool      `query:"newest_first" doc:"Newest first; the default is oldest first."`
	Limit         int       `query:"limit" minimum:"1" maximum:"1000" default:"100" doc:"At most this many facts."`
	Offset        int       `query:"offset" minimum:"0" doc:"Skip this many facts."`
}

// factsPage is a page of facts.
type factsPage struct {
	Facts  []factbase.Fact `json:"facts" doc:"The matching facts, in recorded order."`
	Limit  int             `json:"limit"`
	Offset int             `json:"offset"`
	More   bool            `json:"more" doc:"More facts follow this page: ask again with offset+limit."`
}

type factInput struct {
	User string `path:"user" doc:"The user's id, a UUID." example:"0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c0d"`
	ID   string `path:"id" maxLength:"100" doc:"The fact's id." example:"019538c2-7d3e-7b4a-9c1f-3e2d1a0b9c8d"`
}

type historyInput struct {
	User    string `path:"user" doc:"The user's id, a UUID." example:"0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c0d"`
	Key     string `path:"key" maxLength:"200" doc:"The key." example:"contact.email"`
	Subject string `query:"subject" doc:"Whose key. Default user."`
	Offset  int    `query:"offset" minimum:"0" doc:"Skip this many of the newest versions."`
	Limit   int    `query:"limit" minimum:"1" maximum:"1000" default:"100" doc:"At most this many versions."`
}

// history is a page of a key's versions.
type history struct {
	Subject  string          `json:"subject"`
	Key      string          `json:"key"`
	Versions []factbase.Fact `json:"versions" doc:"The versions of this page, newest first, with their validity."`
	Offset   int             `json:"offset"`
	Limit    int             `json:"limit"`
	More     bool            `json:"more" doc:"Older versions remain: ask again with offset+limit."`
}

func (s *Server) registerFacts() {
	huma.Register(s.api, s.op("set-fact", http.MethodPost, "/v1/users/{user}/facts", tagFacts,
		"Create or set a fact",
		`Writes a fact through the one write path according to its key's cardinality: a
single-valued key keeps the newest value current and the earlier one in history; a set
stores a value unless an equal one is present; a ranked list appends, or places the
value at "rank". A value already present is reported in "duplicates" and not stored
again.`, http.StatusConflict), s.setFact)
	huma.Register(s.api, s.op("list-facts", http.MethodGet, "/v1/users/{user}/facts", tagFacts,
		"List facts",
		`Lists the user's current facts, filtered by key, key prefix, subject, category, type
and minimum confidence; with history=true superseded and removed versions too, and with
as_of the facts as they were at a past time. Paged: at most limit facts (default 100,
at most 1000) from offset on; "more" says whether more follow.`), s.listFacts)
	huma.Register(s.api, s.op("get-fact", http.MethodGet, "/v1/users/{user}/facts/{id}", tagFacts,
		"Get a fact by id", `Returns one fact, current or not. 404 if the user has no fact with that id.`,
		http.StatusNotFound), s.getFact)
	huma.Register(s.api, s.op("delete-fact", http.MethodDelete, "/v1/users/{user}/facts/{id}", tagFacts,
		"Delete a fact",
		`Erases the fact from the store, history included; a ranked list closes the gap.
To end a fact's validity but keep its history, retract it instead.`, http.StatusNotFound), s.deleteFact)
	huma.Register(s.api, s.op("retract-fact", http.MethodPost, "/v1/users/{user}/facts/{id}/retract", tagFacts,
		"Retract a fact",
		`Ends the fact's validity now and keeps it in history; a ranked list closes the gap.
409 if the fact is not current.`, http.StatusNotFound, http.StatusConflict), s.retractFact)
	huma.Register(s.api, s.op("get-fact-history", http.MethodGet, "/v1/users/{user}/history/{key}", tagFacts,
		"History of a key",
		`Every version of the key, newest first, with the times it was valid. 404 if the key
was never written. Paged: at most limit versions (default 100, at most 1000) from offset
on; "more" says whether older ones remain.`, http.StatusNotFound), s.history)
}

func (s *Server) setFact(ctx context.Context, in *setFactInput) (*output[factbase.Result], error) {
	b := in.Body
	f := factbase.Fact{Subject: b.Subject, Key: b.Key, Value: b.Value, Rank: b.Rank,
		Cardinality: factbase.Cardinality(b.Cardinality), ValueType: factbase.ValueType(b.ValueType),
		Type: b.Type, Category: factbase.Category(b.Category), Confidence: b.Confidence, Text: b.Text,
		Scope: b.Scope, Durability: factbase.Durability(b.Durability), Sensitivity: factbase.Sensitivity(b.Sensitivity),
		SaidBy: b.SaidBy, Source: factbase.Source{Kind: factbase.SourceManual}, Extractor: "api"}
	if b.Source != nil {
		f.Source = *b.Source
	}
	if b.ValidFrom != nil {
		f.ValidFrom = *b.ValidFrom
	}
	return s.apply(ctx, in.User, factbase.Op{Kind: factbase.OpSet, Fact: f})
}

// apply runs ops through the engine's write path for the user the path names.
func (s *Server) apply(ctx context.Context, user string, ops ...factbase.Op) (*output[factbase.Result], error) {
	return forUser(ctx, user, func(u factbase.UserID) (factbase.Result, error) {
		return s.opts.Engine.Apply(ctx, u, ops)
	})
}

func (s *Server) listFacts(ctx context.Context, in *listFactsInput) (*output[factsPage], error) {
	f := factbase.FactFilter{Key: in.Key, KeyPrefix: in.Prefix, Subject: in.Subject,
		Category: factbase.Category(in.Category), Type: in.Type, MinConfidence: in.MinConfidence,
		History: in.History, NewestFirst: in.Newest, Limit: in.Limit, Offset: in.Offset}
	if !in.AsOf.IsZero() {
		f.AsOf = &in.AsOf
	}
	if f.Limit == 0 {
		f.Limit = core.DefaultPageSize
	}
	return forUser(ctx, in.User, func(u factbase.UserID) (factsPage, error) {
		limit := f.Limit
		f.Limit++ // one past the page: are there more?
		facts, err := s.opts.Engine.Facts(ctx, u, f)
		p := factsPage{Limit: limit, Offset: f.Offset}
		p.Facts, p.More = core.TrimPage(facts, limit)
		return p, err
	})
}

func (s *Server) getFact(ctx context.Context, in *factInput) (*output[factbase.Fact], error) {
	return forUser(ctx, in.User, func(u factbase.UserID) (factbase.Fact, error) {
		return s.opts.Engine.Fact(ctx, u, in.ID)
	})
}

func (s *Server) deleteFact(ctx context.Context, in *factInput) (*output[factbase.Result], error) {
	return s.apply(ctx, in.User, factbase.Op{Kind: factbase.OpDelete, ID: in.ID})
}

func (s *Server) retractFact(ctx context.Context, in *factInput) (*output[factbase.Result], error) {
	return s.apply(ctx, in.User, factbase.Op{Kind: factbase.OpRetract, ID: in.ID})
}

func (s *Server) history(ctx context.Context, in *historyInput) (*output[history], error) {
	subject := in.Subject
	if subject == "" {
		subject = factbase.SubjectUser
	}
	return forUser(ctx, in.User, func(u factbase.UserID) (history, error) {
		p, err := s.opts.Engine.History(ctx, u, subject, in.Key, in.Offset, in.Limit)
		if err == nil && len(p.Versions) == 0 && in.Offset == 0 {
			err = factbase.Errorf(factbase.ENOTFOUND, "no history for %s", in.Key)
		}
		return history{Subject: subject, Key: in.Key, Versions: p.Versions, Offset: p.Offset, Limit: p.Limit, More: p.More}, err
	})
}
