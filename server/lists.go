package server

import (
	"context"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory/core"
)

type showListInput struct {
	User    string    `path:"user" doc:"The user's id, a UUID." example:"0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c0d"`
	Key     string    `path:"key" maxLength:"200" doc:"The list's key; ranked lists are favorites.*." example:"favorites.crypto"`
	Subject string    `query:"subject" doc:"Whose list: user (the default) or entity:<id>."`
	Offset  int       `query:"offset" minimum:"0" doc:"Members to skip."`
	Limit   int       `query:"limit" minimum:"1" maximum:"1000" default:"100" doc:"Members to return."`
	AsOf    time.Time `query:"as_of" doc:"The list as it was at a past time (RFC 3339), rebuilt from its change events."`
}

// addBody adds one value or several, in order.
type addBody struct {
	Value  string   `json:"value,omitempty" maxLength:"4096" doc:"One value to append." example:"BTC"`
	Values []string `json:"values,omitempty" maxItems:"1000" doc:"Several values to append, in order."`
}

// listWriteInput is a write to a list with a body of type B.
type listWriteInput[B any] struct {
	User    string `path:"user" doc:"The user's id, a UUID." example:"0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c0d"`
	Key     string `path:"key" maxLength:"200" doc:"The list's key; ranked lists are favorites.*." example:"favorites.crypto"`
	Subject string `query:"subject" doc:"Whose list: user (the default) or entity:<id>."`
	Body    B
}

// rankBody places a value at a rank.
type rankBody struct {
	Value string `json:"value" minLength:"1" maxLength:"4096" doc:"The value to place." example:"XMR"`
	Rank  int    `json:"rank" minimum:"1" doc:"The rank, 1 for first: moves a present value, inserts an absent one (the rest shift down), appends beyond the end." example:"1"`
}

type removeInput struct {
	User    string `path:"user" doc:"The user's id, a UUID." example:"0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c0d"`
	Key     string `path:"key" maxLength:"200" doc:"The list's key; ranked lists are favorites.*." example:"favorites.crypto"`
	Subject string `query:"subject" doc:"Whose list: user (the default) or entity:<id>."`
	Value   string `path:"value" maxLength:"4096" doc:"The value to remove, URL-escaped; compared after normalisation (case, punctuation, white space)." example:"ETH"`
}

func (s *Server) registerLists() {
	huma.Register(s.api, s.op("get-list", http.MethodGet, "/v1/users/{user}/lists/{key}", tagLists,
		"Show a ranked list",
		`A page of the ranked list in rank order, with the list's total length. An unknown
list is empty, not an error. Paged: at most limit members (default 100, at most 1000)
from offset on. With as_of the list's change events up to that time are replayed and
only the page's members are read.`), s.showList)
	huma.Register(s.api, s.op("add-list-items", http.MethodPost, "/v1/users/{user}/lists/{key}", tagLists,
		"Append to a ranked list",
		`Appends "value", or each of "values" in order. A value already in the list (by
normalised comparison: "btc." is BTC) is not added again; it is reported in
"duplicates" with its rank.`, http.StatusConflict), s.addToList)
	huma.Register(s.api, s.op("rank-list-item", http.MethodPost, "/v1/users/{user}/lists/{key}/rank", tagLists,
		"Place a value at a rank",
		`MOVEs a present value to the rank, INSERTs an absent one there (the members below
shift down), is a NOOP when it is already there, and APPENDs when the rank is beyond
the end. The mutation is reported with its from and to ranks.`, http.StatusConflict), s.rankInList)
	huma.Register(s.api, s.op("remove-list-item", http.MethodDelete, "/v1/users/{user}/lists/{key}/items/{value}", tagLists,
		"Remove a value from a ranked list",
		`Removes the value and closes the gap; it stays in history. 404 if the value is not
in the list.`, http.StatusNotFound), s.removeFromList)
}

// applyToList runs ops through the write path for the user the path names, once
// key is known to be a ranked list and there is something to write.
func (s *Server) applyToList(ctx context.Context, user, key string, ops ...factbase.Op) (*output[factbase.Result], error) {
	return forUser(ctx, user, func(u factbase.UserID) (factbase.Result, error) {
		if err := factbase.ValidateKey(key); err != nil {
			return factbase.Result{}, err
		}
		if factbase.DefaultCardinalities().Of(key) != factbase.Ranked {
			return factbase.Result{}, factbase.Errorf(factbase.EINVALID, "%s is not a ranked list (ranked lists are favorites.*)", key)
		}
		if len(ops) == 0 {
			return factbase.Result{}, fail(ctx, factbase.Errorf(factbase.EINVALID, "give \"value\" or \"values\" to add"),
				&huma.ErrorDetail{Location: "body", Message: "expected value or values"})
		}
		return s.opts.Engine.Apply(ctx, u, ops)
	})
}

func (s *Server) showList(ctx context.Context, in *showListInput) (*output[core.ListPage], error) {
	var asOf *time.Time
	if !in.AsOf.IsZero() {
		asOf = &in.AsOf
	}
	return forUser(ctx, in.User, func(u factbase.UserID) (core.ListPage, error) {
		return s.opts.Engine.List(ctx, u, in.Subject, in.Key, in.Offset, in.Limit, asOf)
	})
}

// listOp sets value at rank (0: append) in the ranked list subject's key.
func listOp(subject, key, value string, rank int) factbase.Op {
	return factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Subject: subject, Key: key, Value: value, Rank: rank,
		Type: "preference", Category: factbase.Core, Source: factbase.Source{Kind: factbase.SourceManual}, Extractor: "api"}}
}

func (s *Server) addToList(ctx context.Context, in *listWriteInput[addBody]) (*output[factbase.Result], error) {
	values := in.Body.Values
	if in.Body.Value != "" {
		values = append([]string{in.Body.Value}, values...)
	}
	ops := make([]factbase.Op, len(values))
	for i, v := range values {
		ops[i] = listOp(in.Subject, in.Key, v, 0)
	}
	return s.applyToList(ctx, in.User, in.Key, ops...)
}

func (s *Server) rankInList(ctx context.Context, in *listWriteInput[rankBody]) (*output[factbase.Result], error) {
	return s.applyToList(ctx, in.User, in.Key, listOp(in.Subject, in.Key, in.Body.Value, in.Body.Rank))
}

func (s *Server) removeFromList(ctx context.Context, in *removeInput) (*output[factbase.Result], error) {
	return s.applyToList(ctx, in.User, in.Key, factbase.Op{Kind: factbase.OpRemove,
		Fact: factbase.Fact{Subject: in.Subject, Key: in.Key, Value: in.Value}})
}
