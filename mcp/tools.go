package mcp

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory/chat"
	"github.com/factbase/factbase/memory/core"
	"github.com/factbase/factbase/memory/jobs"
	"github.com/factbase/factbase/memory/retrieve"
)

// MaxTextBytes is the most bytes a message or question may hold.
const MaxTextBytes = 16 << 10

// checkText refuses an empty or oversized message or question.
func checkText(name, s string) error {
	if strings.TrimSpace(s) == "" {
		return factbase.Errorf(factbase.EINVALID, "%s is empty", name)
	}
	if len(s) > MaxTextBytes {
		return factbase.Errorf(factbase.EINVALID, "%s is %d bytes; the limit is %d", name, len(s), MaxTextBytes)
	}
	return nil
}

func (s *Server) registerTools() {
	addTool(s, tool("remember", "Remember what the user said", "Remember", writes,
		`Remember what a user's message states. The rules run now, synchronously and without a model: favorites ("My favorite editors are Helix and Neovim", "My #2 favorite movie is Alien", "Remove X from my favorite Y"), email, phone, name, home city, employer, job, birthday, and facts about the people the user names ("My wife Anna is allergic to peanuts"); a change to such a fact that needs the user's confirmation is queued as a conflict (see list_conflicts). Negations, hypotheticals and questions write nothing; a statement missing its topic or value returns a clarification question. When the server has a model configured, the message is also queued for it as a background job (the job's id is returned; its facts are checked before they are written). Returns what the rules wrote: the writes, counters from the store, duplicates (with their rank), rank changes and a one-sentence reply.`),
		s.remember)
	addTool(s, tool("ask", "Ask about the user's facts", "Ask", reads,
		`Answer a question about the user from what is stored, deterministically and without a model: their lists ("What is my second favorite editor?", "Is Dune one of my favorite books?", "How many favorite podcasts do I have?"), their facts and the people they mention ("Who is my husband?", "When is Kai's birthday?", "Is anyone in my family allergic to nuts?"), earlier values ("Where did I live before Oslo?"), times ("What do I have on Friday?") and episodes. Each item names the fact it came from. It never guesses: when nothing stored answers, the reply says "I don't know" and items is empty.`),
		s.ask)
	addTool(s, tool("search", "Search facts and episodes", "Search", reads,
		`Hybrid search over the user's facts and episodes: full text (BM25) and, when an embedder is configured, vector similarity, fused by reciprocal rank, damped by age and boosted for facts about a person the query names. Filters narrow the candidates; fact-only filters (key_prefix, type, category, subject, min_confidence) leave episodes out. At most limit hits (default 10, at most 100), the best ones.`),
		s.search)
	addTool(s, tool("set_fact", "Set a fact", "Set fact", writes,
		`Write one fact directly through the write path, by its key's cardinality: a single-valued key keeps the newest value current and the earlier ones in history; a favorites.* key is a ranked list (append, or place at rank); a value already present is reported as a duplicate and not stored again.`),
		s.setFact)
	addTool(s, tool("list_facts", "List facts", "List facts", reads,
		`List the user's facts: the current ones by default, or every version with history. With key, the current facts of that key (a ranked list in rank order); filters narrow by subject, key prefix, category, type and confidence; as_of reads the facts as they were at a past time. Paged: at most limit facts (default 100, at most 1000) from offset on; more says whether more follow.`),
		s.listFacts)
	addTool(s, tool("fact_history", "Show a fact's history", "Fact history", reads,
		`Every version of a key, newest first, with when each held (valid_from, valid_to) and what superseded it: "what was my email before?". Name the key, or a fact id to see the history of its key. Paged: at most limit versions (default 100, at most 1000) from offset on; more says whether older ones remain.`),
		s.factHistory)
	addTool(s, tool("forget", "Forget a fact", "Forget", erases,
		`Forget a fact by id, or every fact of a key. mode "retract" (the default) ends its validity and keeps it in history; mode "delete" erases it, history, references and index entries included, and cannot be undone. A reason is required: it is returned and written to the server's audit log (the store keeps no reason).`),
		s.forget)
}

// RememberInput is the input of the remember tool.
type RememberInput struct {
	Caller
	Text string `json:"text" maxLength:"16384" jsonschema:"What the user said, as plain text (at most 16 KiB), e.g. \"My favorite editors are Helix and Neovim\"."`
}

// Write is one write that remember made.
type Write struct {
	Kind  string `json:"kind" jsonschema:"set (write or place a value) or remove (take a value out of a list)."`
	Key   string `json:"key" jsonschema:"The key written, e.g. favorites.text_editor."`
	Value string `json:"value" jsonschema:"The value as said."`
	Rank  int    `json:"rank,omitempty" jsonschema:"The rank asked for, for ranked lists; absent means append."`
}

// RememberOutput is what remember did.
type RememberOutput struct {
	Reply      string      `json:"reply" jsonschema:"A one-sentence summary for the user."`
	Route      string      `json:"route" jsonschema:"How the message was read: write, read (a question: nothing written) or none."`
	Extraction string      `json:"extraction" jsonschema:"How facts were extracted: rules (synchronous, no model), or rules+model (the rules now, the model in the background job)."`
	Writes     []Write     `json:"writes" jsonschema:"The writes made, in order."`
	Counts     Counts      `json:"counts" jsonschema:"What the store did."`
	Duplicates []Duplicate `json:"duplicates" jsonschema:"Values not stored again because they were already present."`
	Mutations  []Mutation  `json:"mutations" jsonschema:"Rank changes in ranked lists."`
	Clarify    string      `json:"clarify,omitempty" jsonschema:"A question to ask the user when the message lacked a topic or value."`
	Skipped    []string    `json:"skipped,omitempty" jsonschema:"Statements not applied, with why."`
	Job        *JobRef     `json:"job,omitempty" jsonschema:"The background job that asks the model about the message, when a model is configured."`
	ModelNote  string      `json:"model_note,omitempty" jsonschema:"Why the model will not read the message (its job could not be queued), or when it will (a spent daily token budget); the rules' writes stand."`
}

// JobRef names a background job.
type JobRef struct {
	ID    string `json:"id" jsonschema:"The job's id."`
	State string `json:"state" jsonschema:"queued, running, done or dead."`
}

func (s *Server) remember(ctx context.Context, user factbase.UserID, in RememberInput) (RememberOutput, error) {
	if err := checkText("text", in.Text); err != nil {
		return RememberOutput{}, err
	}
	rem := jobs.Remembered{Extraction: jobs.ExtractionRules}
	var err error
	if s.opts.Workers != nil {
		rem, err = s.opts.Workers.Remember(ctx, user, in.Text)
	} else {
		rem.SayResult, err = s.e.Chat.Say(ctx, user, in.Text)
	}
	if err != nil {
		return RememberOutput{}, err
	}
	res := rem.SayResult
	out := RememberOutput{Reply: res.Reply, Route: string(res.Route), Extraction: rem.Extraction, Writes: []Write{},
		Counts: countsOf(res.Result), Duplicates: duplicatesOut(res.Result.Duplicates),
		Mutations: mutationsOut(res.Result.Mutations), Clarify: res.Clarify, Skipped: res.Skipped, ModelNote: rem.ModelNote}
	for _, op := range res.Ops {
		out.Writes = append(out.Writes, Write{Kind: string(op.Kind), Key: op.Key, Value: op.Value, Rank: op.Rank})
	}
	if rem.Job != nil {
		out.Job = &JobRef{ID: rem.Job.ID, State: string(rem.Job.State)}
	}
	return out, nil
}

// AskInput is the input of the ask tool.
type AskInput struct {
	Caller
	Question string `json:"question" maxLength:"16384" jsonschema:"The user's question, as plain text (at most 16 KiB), e.g. \"What is my second favorite editor?\"."`
}

// AskItem is one value of an answer.
type AskItem struct {
	Rank  int    `json:"rank,omitempty" jsonschema:"Its rank, for ranked lists."`
	Value string `json:"value" jsonschema:"The stored value."`
	ID    string `json:"id" jsonschema:"The id of the fact it came from."`
	Key   string `json:"key,omitempty" jsonschema:"The key of the fact it came from."`
	About string `json:"about,omitempty" jsonschema:"Whom the fact is about: user, or the person's label."`
}

// Answer is the answer to one part of a question.
type Answer struct {
	Key   string    `json:"key" jsonschema:"The key the part asked about."`
	Items []AskItem `json:"items" jsonschema:"The values found; empty when nothing is stored."`
	Total int       `json:"total,omitempty" jsonschema:"The list's length, for list answers."`
	Reply string    `json:"reply" jsonschema:"The answer as a sentence."`
}

// AskOutput is the answer to a question.
type AskOutput struct {
	Reply   string    `json:"reply" jsonschema:"The answer as a sentence; says so when nothing is known."`
	Route   string    `json:"route" jsonschema:"How the question was read: read, or write/none when it is not a question about the user's facts."`
	Key     string    `json:"key,omitempty" jsonschema:"The key of the (first) thing asked about."`
	Items   []AskItem `json:"items" jsonschema:"The values answering the (first) thing asked; empty when unknown."`
	Answers []Answer  `json:"answers,omitempty" jsonschema:"One answer per thing asked, when the question asks several."`
	Source  string    `json:"source,omitempty" jsonschema:"The read that answered: list, facts, history, episodes or model; empty when nothing did."`
}

func askItems(items []chat.AskItem) []AskItem {
	out := make([]AskItem, len(items))
	for i, it := range items {
		out[i] = AskItem{Rank: it.Rank, Value: it.Value, ID: it.ID, Key: it.Key, About: it.About}
	}
	return out
}

func (s *Server) ask(ctx context.Context, user factbase.UserID, in AskInput) (AskOutput, error) {
	if err := checkText("question", in.Question); err != nil {
		return AskOutput{}, err
	}
	res, err := s.e.Chat.Ask(ctx, user, in.Question)
	if err != nil {
		return AskOutput{}, err
	}
	out := AskOutput{Reply: res.Reply, Route: string(res.Route), Key: res.Key, Items: askItems(res.Items), Source: res.Source}
	for _, a := range res.Answers {
		out.Answers = append(out.Answers, Answer{Key: a.Key, Items: askItems(a.Items), Total: a.Total, Reply: a.Reply})
	}
	return out, nil
}

// SearchInput is the input of the search tool.
type SearchInput struct {
	Caller
	Query             string   `json:"query" maxLength:"4096" jsonschema:"What to look for, in words (at most 4096 bytes)."`
	Kinds             []string `json:"kinds,omitempty" enum:"fact,episode" jsonschema:"Which items to search: fact, episode or both (the default)."`
	KeyPrefix         string   `json:"key_prefix,omitempty" maxLength:"200" jsonschema:"Only facts whose key starts with this, e.g. favorites."`
	Type              string   `json:"type,omitempty" maxLength:"100" jsonschema:"Only facts of this type, e.g. contact or preference."`
	Category          string   `json:"category,omitempty" enum:"core,technical,project,transient" jsonschema:"Only facts of this sheet category: core, technical, project or transient."`
	Subject           string   `json:"subject,omitempty" maxLength:"200" jsonschema:"Only facts about this subject: user, or entity:<id>."`
	MinConfidence     float64  `json:"min_confidence,omitempty" minimum:"0" maximum:"1" jsonschema:"Only facts at least this confident, 0 to 1."`
	Tags              []string `json:"tags,omitempty" maxItems:"32" jsonschema:"Only episodes carrying every tag, and facts from such episodes."`
	From              string   `json:"from,omitempty" format:"date-time" jsonschema:"Only items from this time on (RFC 3339, inclusive): a fact's valid-from time, an episode's created time."`
	To                string   `json:"to,omitempty" format:"date-time" jsonschema:"Only items before this time (RFC 3339, exclusive)."`
	IncludeSuperseded bool     `json:"include_superseded,omitempty" jsonschema:"Also find facts a newer value replaced."`
	Limit             int      `json:"limit,omitempty" minimum:"0" maximum:"100" jsonschema:"The most hits to return, 1 to 100 (default 10)."`
}

// Hit is one search result.
type Hit struct {
	Kind    string   `json:"kind" jsonschema:"fact or episode."`
	ID      string   `json:"id" jsonschema:"The fact's or episode's id."`
	Text    string   `json:"text" jsonschema:"A fact's text (or key: value), an episode's content."`
	Score   float64  `json:"score" jsonschema:"The fused relevance score; higher is better."`
	Fact    *Fact    `json:"fact,omitempty" jsonschema:"The fact, for fact hits."`
	Episode *Episode `json:"episode,omitempty" jsonschema:"The episode, for episode hits."`
}

// SearchOutput is what search found.
type SearchOutput struct {
	Hits     []Hit    `json:"hits" jsonschema:"The results, best first."`
	Subjects []string `json:"subjects,omitempty" jsonschema:"Subjects the query was found to name, whose facts were boosted."`
	Warnings []string `json:"warnings,omitempty" jsonschema:"Why the search ranked by full text alone: the embedder could not be reached, or the stored vectors were made by another embedder (factbase reembed fixes it)."`
}

func (s *Server) search(ctx context.Context, user factbase.UserID, in SearchInput) (SearchOutput, error) {
	from, err := parseTime("from", in.From)
	if err != nil {
		return SearchOutput{}, err
	}
	to, err := parseTime("to", in.To)
	if err != nil {
		return SearchOutput{}, err
	}
	res, err := s.e.Retrieve.Search(ctx, user, in.Query, retrieve.SearchOptions{Kinds: in.Kinds, KeyPrefix: in.KeyPrefix,
		Type: in.Type, Category: factbase.Category(in.Category), Subject: in.Subject, MinConfidence: in.MinConfidence,
		Tags: in.Tags, From: from, To: to, IncludeSuperseded: in.IncludeSuperseded, Limit: in.Limit})
	if err != nil {
		return SearchOutput{}, err
	}
	out := SearchOutput{Hits: make([]Hit, 0, len(res.Hits)), Subjects: res.Subjects, Warnings: res.Warnings}
	for _, h := range res.Hits {
		hit := Hit{Kind: h.Kind, ID: h.ID, Text: h.Text, Score: h.Score}
		if h.Fact != nil {
			f := factOut(*h.Fact)
			hit.Fact = &f
		}
		if h.Episode != nil {
			ep := episodeOut(*h.Episode)
			hit.Episode = &ep
		}
		out.Hits = append(out.Hits, hit)
	}
	return out, nil
}

// SetFactInput is the input of the set_fact tool.
type SetFactInput struct {
	Caller
	Key         string  `json:"key" maxLength:"200" jsonschema:"What the fact is, e.g. contact.email, work.employer, or favorites.movie for a ranked list."`
	Value       string  `json:"value" maxLength:"4096" jsonschema:"The value, as the user said it (at most 4096 bytes)."`
	Subject     string  `json:"subject,omitempty" maxLength:"200" jsonschema:"Whom the fact is about: user (the default) or entity:<id>."`
	Rank        *int    `json:"rank,omitempty" minimum:"1" jsonschema:"For a ranked list (favorites.*): the rank to place the value at, 1 for first; leave it out to append."`
	Text        string  `json:"text,omitempty" maxLength:"200" jsonschema:"The fact as a short sentence (at most 200 characters)."`
	Type        string  `json:"type,omitempty" maxLength:"100" jsonschema:"The kind of fact: contact, work, preference, schedule, health, ..."`
	Category    string  `json:"category,omitempty" enum:"core,technical,project,transient" jsonschema:"The fact sheet category: core, technical, project or transient (the default)."`
	Confidence  float64 `json:"confidence,omitempty" minimum:"0" maximum:"1" jsonschema:"How sure you are, above 0 and at most 1 (default 1)."`
	Sensitivity string  `json:"sensitivity,omitempty" enum:"low,medium,high" jsonschema:"How private the fact is: low, medium or high (a privacy mode hides high)."`
}

// WriteOutput is what a write did.
type WriteOutput struct {
	Summary    string      `json:"summary" jsonschema:"What happened, in a sentence."`
	Counts     Counts      `json:"counts" jsonschema:"What the store did."`
	Facts      []Fact      `json:"facts" jsonschema:"The facts written or touched."`
	Duplicates []Duplicate `json:"duplicates" jsonschema:"Values not stored again because they were already present."`
	Mutations  []Mutation  `json:"mutations" jsonschema:"Rank changes in ranked lists."`
}

func writeOutput(res factbase.Result) WriteOutput {
	return WriteOutput{Summary: summarize(res), Counts: countsOf(res), Facts: factsOut(res.Facts),
		Duplicates: duplicatesOut(res.Duplicates), Mutations: mutationsOut(res.Mutations)}
}

// summarize says what a write did in a sentence.
func summarize(res factbase.Result) string {
	var parts []string
	add := func(n int, what string) {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d fact%s", what, n, plural(n)))
		}
	}
	add(res.Stored, "stored")
	add(res.Updated, "superseded")
	add(res.Retracted, "retracted")
	add(res.Deleted, "deleted")
	for _, d := range res.Duplicates {
		if d.Rank > 0 {
			parts = append(parts, fmt.Sprintf("%s is already in %s at #%d", d.Value, d.Key, d.Rank))
		} else {
			parts = append(parts, fmt.Sprintf("%s is already stored for %s", d.Value, d.Key))
		}
	}
	for _, m := range res.Mutations {
		switch m.Action {
		case factbase.Move:
			parts = append(parts, fmt.Sprintf("moved %s from #%d to #%d in %s", m.Value, m.From, m.To, m.Key))
		case factbase.Insert, factbase.Append:
			parts = append(parts, fmt.Sprintf("placed %s at #%d in %s", m.Value, m.To, m.Key))
		case factbase.Remove:
			parts = append(parts, fmt.Sprintf("removed %s from %s", m.Value, m.Key))
		}
	}
	if len(parts) == 0 {
		return "Nothing changed."
	}
	s := strings.Join(parts, "; ") + "."
	return strings.ToUpper(s[:1]) + s[1:]
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func checkSensitivity(s string) error {
	switch factbase.Sensitivity(s) {
	case "", factbase.Low, factbase.MediumSens, factbase.High:
		return nil
	}
	return factbase.Errorf(factbase.EINVALID, "sensitivity %q is not one of low, medium, high", s)
}

func (s *Server) setFact(ctx context.Context, user factbase.UserID, in SetFactInput) (WriteOutput, error) {
	if err := checkSensitivity(in.Sensitivity); err != nil {
		return WriteOutput{}, err
	}
	// An absent rank appends; a rank that is given must be a place in the list (the
	// schema says so too, but a rank of 0 must never quietly mean "append").
	rank := 0
	if in.Rank != nil {
		if rank = *in.Rank; rank < 1 {
			return WriteOutput{}, factbase.Errorf(factbase.EINVALID, "rank %d is not a place in a list: give 1 for first, 2 for second, ..., or leave rank out to append", rank)
		}
	}
	op := factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Subject: in.Subject, Key: in.Key, Value: in.Value,
		Rank: rank, Text: in.Text, Type: in.Type, Category: factbase.Category(in.Category),
		Confidence: in.Confidence, Sensitivity: factbase.Sensitivity(in.Sensitivity),
		Source: factbase.Source{Kind: factbase.SourceManual}, Extractor: "mcp", SaidBy: "user"}}
	res, err := s.e.Apply(ctx, user, []factbase.Op{op})
	if err != nil {
		return WriteOutput{}, err
	}
	return writeOutput(res), nil
}

// ListFactsInput is the input of the list_facts tool.
type ListFactsInput struct {
	Caller
	Key           string  `json:"key,omitempty" maxLength:"200" jsonschema:"Only this key, e.g. favorites.movie; a ranked list comes in rank order."`
	KeyPrefix     string  `json:"key_prefix,omitempty" maxLength:"200" jsonschema:"Only keys starting with this, e.g. favorites."`
	Subject       string  `json:"subject,omitempty" maxLength:"200" jsonschema:"Only facts about this subject: user or entity:<id>; default every subject (user with key)."`
	Category      string  `json:"category,omitempty" enum:"core,technical,project,transient" jsonschema:"Only this sheet category: core, technical, project or transient."`
	Type          string  `json:"type,omitempty" maxLength:"100" jsonschema:"Only facts of this type, e.g. contact."`
	MinConfidence float64 `json:"min_confidence,omitempty" minimum:"0" maximum:"1" jsonschema:"Only facts at least this confident, 0 to 1."`
	History       bool    `json:"history,omitempty" jsonschema:"Include superseded, retracted and removed versions."`
	AsOf          string  `json:"as_of,omitempty" format:"date-time" jsonschema:"Read the facts as they were at this time (RFC 3339)."`
	Limit         int     `json:"limit,omitempty" minimum:"0" maximum:"1000" jsonschema:"The most facts to return, 1 to 1000 (default 100)."`
	Offset        int     `json:"offset,omitempty" minimum:"0" jsonschema:"How many facts to skip, for paging."`
}

// ListFactsOutput is a page of facts.
type ListFactsOutput struct {
	Facts []Fact `json:"facts" jsonschema:"The facts, oldest first (a ranked list's key: in rank order)."`
	Count int    `json:"count" jsonschema:"How many facts this page holds."`
	More  bool   `json:"more" jsonschema:"True when more facts follow: call again with offset + count."`
}

func (s *Server) listFacts(ctx context.Context, user factbase.UserID, in ListFactsInput) (ListFactsOutput, error) {
	limit := in.Limit
	if limit == 0 {
		limit = core.DefaultPageSize
	}
	if limit < 0 || limit > core.MaxPageSize {
		return ListFactsOutput{}, factbase.Errorf(factbase.EINVALID, "limit %d is outside 1..%d", limit, core.MaxPageSize)
	}
	if in.Offset < 0 {
		return ListFactsOutput{}, factbase.Errorf(factbase.EINVALID, "offset %d is negative", in.Offset)
	}
	if in.Category != "" && !validCategory(in.Category) {
		return ListFactsOutput{}, factbase.Errorf(factbase.EINVALID, "category %q is not one of core, technical, project, transient", in.Category)
	}
	if in.MinConfidence < 0 || in.MinConfidence > 1 {
		return ListFactsOutput{}, factbase.Errorf(factbase.EINVALID, "min_confidence %v is outside 0..1", in.MinConfidence)
	}
	asOf, err := parseTime("as_of", in.AsOf)
	if err != nil {
		return ListFactsOutput{}, err
	}
	var at *time.Time
	if !asOf.IsZero() {
		at = &asOf
	}
	if in.Key != "" {
		if err := factbase.ValidateKey(in.Key); err != nil {
			return ListFactsOutput{}, err
		}
	}
	var out ListFactsOutput
	if in.Key != "" && !in.History && in.KeyPrefix == "" && in.Category == "" && in.Type == "" && in.MinConfidence == 0 &&
		s.e.Cardinality(in.Key) == factbase.Ranked {
		// A ranked list's current members: a page of it in rank order.
		p, err := s.e.List(ctx, user, in.Subject, in.Key, in.Offset, limit, at)
		if err != nil {
			return ListFactsOutput{}, err
		}
		out.Facts, out.Count, out.More = factsOut(p.Items), len(p.Items), in.Offset+len(p.Items) < p.Total
		return out, nil
	}
	subject := in.Subject
	if subject == "" && in.Key != "" {
		subject = factbase.SubjectUser // a key alone is the user's, as for the point read
	}
	facts, err := s.e.Facts(ctx, user, factbase.FactFilter{Subject: subject, Key: in.Key, KeyPrefix: in.KeyPrefix,
		Category: factbase.Category(in.Category), Type: in.Type, MinConfidence: in.MinConfidence,
		History: in.History, AsOf: at, Limit: limit + 1, Offset: in.Offset})
	if err != nil {
		return ListFactsOutput{}, err
	}
	facts, out.More = core.TrimPage(facts, limit)
	out.Facts, out.Count = factsOut(facts), len(facts)
	return out, nil
}

func validCategory(c string) bool {
	for _, k := range factbase.Categories {
		if factbase.Category(c) == k {
			return true
		}
	}
	return false
}

// FactHistoryInput is the input of the fact_history tool.
type FactHistoryInput struct {
	Caller
	Key     string `json:"key,omitempty" maxLength:"200" jsonschema:"The key whose versions to list, e.g. contact.email. Give key or id."`
	ID      string `json:"id,omitempty" maxLength:"100" jsonschema:"A fact id: list the versions of that fact's key. Give key or id."`
	Subject string `json:"subject,omitempty" maxLength:"200" jsonschema:"Whom the key is about: user (the default) or entity:<id>; ignored with id."`
	Offset  int    `json:"offset,omitempty" minimum:"0" jsonschema:"Skip this many of the newest versions (default 0)."`
	Limit   int    `json:"limit,omitempty" minimum:"0" maximum:"1000" jsonschema:"At most this many versions (default 100, at most 1000)."`
}

// FactHistoryOutput is the history of a key.
type FactHistoryOutput struct {
	Subject  string `json:"subject" jsonschema:"Whom the key is about."`
	Key      string `json:"key" jsonschema:"The key."`
	Versions []Fact `json:"versions" jsonschema:"The versions of this page, newest first; current is true for the ones that hold now. Empty when the key was never set."`
	More     bool   `json:"more" jsonschema:"Older versions remain: ask again with offset increased by the versions returned."`
}

func (s *Server) factHistory(ctx context.Context, user factbase.UserID, in FactHistoryInput) (FactHistoryOutput, error) {
	subject, key := in.Subject, in.Key
	switch {
	case in.ID != "" && in.Key != "":
		return FactHistoryOutput{}, factbase.Errorf(factbase.EINVALID, "give key or id, not both")
	case in.ID != "":
		f, err := s.e.Fact(ctx, user, in.ID)
		if err != nil {
			return FactHistoryOutput{}, err
		}
		subject, key = f.Subject, f.Key
	case in.Key == "":
		return FactHistoryOutput{}, factbase.Errorf(factbase.EINVALID, "key is empty: give the key (or a fact id) whose history to show")
	}
	if subject == "" {
		subject = factbase.SubjectUser
	}
	p, err := s.e.History(ctx, user, subject, key, in.Offset, in.Limit)
	if err != nil {
		return FactHistoryOutput{}, err
	}
	return FactHistoryOutput{Subject: subject, Key: key, Versions: factsOut(p.Versions), More: p.More}, nil
}

// ForgetInput is the input of the forget tool.
type ForgetInput struct {
	Caller
	ID      string `json:"id,omitempty" maxLength:"100" jsonschema:"The id of the fact to forget. Give id or key."`
	Key     string `json:"key,omitempty" maxLength:"200" jsonschema:"Forget every fact of this key instead (the current ones for retract, every version for delete). Give id or key."`
	Subject string `json:"subject,omitempty" maxLength:"200" jsonschema:"With key: whom the key is about, user (the default) or entity:<id>."`
	Mode    string `json:"mode,omitempty" enum:"retract,delete" jsonschema:"retract (the default: end its validity, keep history) or delete (erase it, history included; cannot be undone)."`
	Reason  string `json:"reason" maxLength:"1000" jsonschema:"Why the fact is forgotten, e.g. \"the user asked\" or \"it was wrong\" (required; at most 1000 bytes)."`
}

// ForgetOutput is what forget did.
type ForgetOutput struct {
	Summary string `json:"summary" jsonschema:"What happened, in a sentence."`
	Mode    string `json:"mode" jsonschema:"retract or delete."`
	Reason  string `json:"reason" jsonschema:"The reason given, as logged."`
	Counts  Counts `json:"counts" jsonschema:"What the store did."`
	Facts   []Fact `json:"facts" jsonschema:"The facts retracted, as they are now (empty for delete: they are gone)."`
}

func (s *Server) forget(ctx context.Context, user factbase.UserID, in ForgetInput) (ForgetOutput, error) {
	mode := in.Mode
	if mode == "" {
		mode = "retract"
	}
	kind := factbase.OpRetract
	switch mode {
	case "retract":
	case "delete":
		kind = factbase.OpDelete
	default:
		return ForgetOutput{}, factbase.Errorf(factbase.EINVALID, "mode %q is not retract or delete", in.Mode)
	}
	if strings.TrimSpace(in.Reason) == "" {
		return ForgetOutput{}, factbase.Errorf(factbase.EINVALID, "reason is empty: say why the fact is forgotten")
	}
	if len(in.Reason) > 1000 {
		return ForgetOutput{}, factbase.Errorf(factbase.EINVALID, "reason is %d bytes; the limit is 1000", len(in.Reason))
	}
	switch {
	case in.ID != "" && in.Key != "":
		return ForgetOutput{}, factbase.Errorf(factbase.EINVALID, "give id or key, not both")
	case in.ID == "" && in.Key == "":
		return ForgetOutput{}, factbase.Errorf(factbase.EINVALID, "id is empty: give the id of the fact to forget (or a key)")
	}
	op := factbase.Op{Kind: kind, ID: in.ID}
	if in.ID == "" {
		op.Fact = factbase.Fact{Subject: in.Subject, Key: in.Key}
	}
	res, err := s.e.Apply(ctx, user, []factbase.Op{op})
	if err != nil {
		return ForgetOutput{}, err
	}
	s.log.InfoContext(ctx, "mcp forget", "user", string(user), "mode", mode, "id", in.ID, "subject", in.Subject,
		"key", in.Key, "reason", in.Reason, "retracted", res.Retracted, "deleted", res.Deleted)
	facts := res.Facts
	if kind == factbase.OpDelete {
		facts = nil
	}
	return ForgetOutput{Summary: summarize(res), Mode: mode, Reason: in.Reason, Counts: countsOf(res),
		Facts: factsOut(facts)}, nil
}
