package server

import (
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory/chat"
	"github.com/factbase/factbase/memory/core"
	"github.com/factbase/factbase/memory/jobs"
	"github.com/factbase/factbase/memory/retrieve"
	"github.com/factbase/factbase/question"
)

// exchange is an example request body and response body of one operation.
type exchange struct {
	request  any // nil: the operation takes no body
	response any // the body of its success response
}

// exampleUser is the user of the examples, as in the parameters' examples.
const exampleUser = factbase.UserID("0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c0d")

var exampleTime = time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC)

// exampleFact is a stored fact as the examples show it.
func exampleFact(id, key string, card factbase.Cardinality, value string, rank int) factbase.Fact {
	f := factbase.Fact{ID: id, User: exampleUser, Subject: factbase.SubjectUser, Key: key, Cardinality: card,
		Value: value, ValueType: factbase.String, Rank: rank, Category: factbase.Core, Confidence: 1,
		Source: factbase.Source{Kind: factbase.SourceMessage}, Extractor: "router", RecordedAt: exampleTime,
		ValidFrom: exampleTime, Current: true}
	if card == factbase.Ranked {
		f.Type = "preference"
	}
	return f
}

// examples are the exchanges of the main operations, by operation id. The values
// are of the types the operations read and write, so that a renamed field cannot
// go unnoticed; TestOpenAPIExamples validates each against its schema.
func examples() map[string]exchange {
	cryptos := []chat.OpView{
		{Kind: factbase.OpSet, Key: "favorites.cryptocurrency", Value: "BTC"},
		{Kind: factbase.OpSet, Key: "favorites.cryptocurrency", Value: "ETH"},
		{Kind: factbase.OpSet, Key: "favorites.cryptocurrency", Value: "XMR"},
	}
	appended := func(value string, to int) factbase.Mutation {
		return factbase.Mutation{Key: "favorites.cryptocurrency", Value: value, Action: factbase.Append, To: to}
	}
	said := chat.SayResult{Route: "write", Ops: cryptos,
		Result: factbase.Result{Stored: 3, Duplicates: []factbase.Duplicate{},
			Mutations: []factbase.Mutation{appended("BTC", 1), appended("ETH", 2), appended("XMR", 3)}},
		Reply:  "Added BTC, ETH and XMR to your favorite cryptocurrencies (#1-#3).",
		Topics: []chat.Canonical{{Topic: "cryptos", Key: "favorites.cryptocurrency", Method: "alias", Confidence: 1}}}
	email := exampleFact("01a215c6-044d-763a-80ca-ea65c80e2e25", factbase.KeyEmail, factbase.One, "ana@example.com", 0)
	email.Text, email.Type, email.SaidBy = "User's email is ana@example.com", "contact", "user"
	btc := exampleFact("01a215c6-0437-7f07-a4c9-628b4ccda72c", "favorites.cryptocurrency", factbase.Ranked, "BTC", 1)
	eth := exampleFact("01a215c6-0437-7f07-a4c9-628b4ccda72e", "favorites.cryptocurrency", factbase.Ranked, "ETH", 2)
	sol := exampleFact("01a215c6-047d-79a6-bc9c-53301d10c8eb", "favorites.cryptocurrency", factbase.Ranked, "SOL", 4)
	sol.Source, sol.Extractor = factbase.Source{Kind: factbase.SourceManual}, "api"
	xmr := exampleFact("01a215c6-0486-7d76-8b51-e0f49a49192c", "favorites.cryptocurrency", factbase.Ranked, "XMR", 1)
	xmr.Source, xmr.Extractor = factbase.Source{Kind: factbase.SourceManual}, "api"
	employer := exampleFact("01a215c6-0465-782c-a350-b7933d938c63", factbase.KeyEmployer, factbase.One, "Acme", 0)
	employer.Category, employer.Source, employer.Extractor = factbase.Transient, factbase.Source{Kind: factbase.SourceManual}, "api"
	written := func(f factbase.Fact, ms ...factbase.Mutation) factbase.Result {
		if ms == nil {
			ms = []factbase.Mutation{}
		}
		return factbase.Result{Stored: 1, Duplicates: []factbase.Duplicate{}, Mutations: ms, Facts: []factbase.Fact{f}}
	}

	return map[string]exchange{
		"say-message": {map[string]any{"text": "My favorite cryptos are BTC, ETH and XMR."}, said},
		"ask-question": {map[string]any{"text": "What is my second favorite crypto?"},
			chat.AskResult{Route: "read", Key: "favorites.cryptocurrency",
				Items: []chat.AskItem{{Rank: 2, Value: "ETH", ID: eth.ID}},
				Reply: "Your #2 favorite cryptocurrency is ETH.", Plan: &question.Plan{Kind: question.Facts, Self: true}, Source: "list"}},
		"remember-message": {map[string]any{"text": "My email is ana@example.com"},
			jobs.Remembered{SayResult: chat.SayResult{Route: "write",
				Ops:    []chat.OpView{{Kind: factbase.OpSet, Key: factbase.KeyEmail, Value: "ana@example.com"}},
				Result: factbase.Result{Stored: 1, Duplicates: []factbase.Duplicate{}, Mutations: []factbase.Mutation{}},
				Reply:  "Noted: your email is ana@example.com."}, Extraction: jobs.ExtractionRules}},
		"search-memory": {map[string]any{"query": "What is my email?", "kinds": []string{"fact"}, "limit": 1},
			retrieve.SearchResult{Hits: []retrieve.Hit{{Kind: factbase.KindFact, ID: email.ID, Text: email.Text, Score: 0.4,
				Explain: retrieve.Explain{BM25Rank: 1, BM25: 2.0056, VectorRank: 1, Similarity: 0.7804, RRFText: 0.1667,
					RRFVector: 0.1667, Decay: 1, SubjectBoost: 1, Importance: 1, ImportanceBoost: 1.2, PeriodBoost: 1,
					SpeakerBoost: 1, Score: 0.4},
				Fact: &email}}, Model: "glove-6b-100d-sif-v1"}},
		"set-fact":   {map[string]any{"key": factbase.KeyEmployer, "value": "Acme"}, written(employer)},
		"list-facts": {nil, factsPage{Facts: []factbase.Fact{email}, Limit: 1, More: false}},
		"get-list": {nil, core.ListPage{Subject: factbase.SubjectUser, Key: "favorites.cryptocurrency",
			Items: []factbase.Fact{btc, eth}, Total: 3, Limit: 2}},
		"add-list-items": {map[string]any{"value": "SOL"},
			written(sol, factbase.Mutation{Key: sol.Key, Value: "SOL", Action: factbase.Append, To: 4})},
		"rank-list-item": {map[string]any{"value": "XMR", "rank": 1},
			written(xmr, factbase.Mutation{Key: xmr.Key, Value: "XMR", Action: factbase.Move, From: 3, To: 1, Shifted: 2})},
	}
}

// addExamples puts the examples into the operations of the document; it runs after
// every operation is registered.
func addExamples(oapi *huma.OpenAPI) {
	for id, ex := range examples() {
		op := operation(oapi, id)
		if op == nil {
			continue // TestOpenAPIExamples fails on an example of no operation
		}
		if ex.request != nil && op.RequestBody != nil {
			if mt := op.RequestBody.Content["application/json"]; mt != nil {
				mt.Example = ex.request
			}
		}
		for status, r := range op.Responses {
			if len(status) == 3 && status[0] == '2' {
				if mt := r.Content["application/json"]; mt != nil {
					mt.Example = ex.response
				}
			}
		}
	}
}

// operation returns the operation of oapi with id, or nil.
func operation(oapi *huma.OpenAPI, id string) *huma.Operation {
	for _, p := range oapi.Paths {
		for _, op := range []*huma.Operation{p.Get, p.Put, p.Post, p.Delete, p.Options, p.Head, p.Patch, p.Trace} {
			if op != nil && op.OperationID == id {
				return op
			}
		}
	}
	return nil
}
