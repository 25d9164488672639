package jobs

import (
	"context"
	"fmt"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory/chat"
)

// Extraction values of Remembered: how a message's facts are extracted.
const (
	ExtractionRules      = "rules"       // the rules, at once; no model configured
	ExtractionRulesModel = "rules+model" // the rules at once, the model in a background job
)

// Remembered is what Remember did with a message: what the rules stored at once (the
// reply of Say), and the model's background job when a model is configured.
type Remembered struct {
	chat.SayResult
	// Extraction is ExtractionRules or ExtractionRulesModel.
	Extraction string `json:"extraction"`
	// Job is the model's extraction job (queued), when a model is configured and the
	// job could be queued.
	Job *factbase.Job `json:"job,omitempty"`
	// ModelNote says why the model will not read the message (the job could not be
	// queued), or when it will (a spent daily token budget). The rules' facts stand
	// either way.
	ModelNote string `json:"model_note,omitempty"`
}

// Remember stores what the rules find in message at once, in one transaction of
// the write path (chat.Service.Say), and, when the pool has a model, queues the
// model's reading of it as a durable extraction job that writes only what the model
// adds. A failure of the model, or of queueing its job, loses nothing the rules
// stored: it is reported in ModelNote and the job's state. EINVALID for a bad user
// or an empty, oversized or non-UTF-8 message.
func (w *Workers) Remember(ctx context.Context, user factbase.UserID, message string) (Remembered, error) {
	if _, err := factbase.ParseUserID(string(user)); err != nil {
		return Remembered{}, err
	}
	if err := validMessage(message); err != nil {
		return Remembered{}, err
	}
	said, err := w.e.chat.Say(ctx, user, message)
	if err != nil {
		return Remembered{}, err
	}
	out := Remembered{SayResult: said, Extraction: ExtractionRules}
	if w.o.Extractor == nil {
		return out, nil
	}
	out.Extraction = ExtractionRulesModel
	j, err := w.js.EnqueueJob(ctx, factbase.Job{ID: w.e.core.NewID(), User: user, Kind: factbase.JobExtract, Input: message,
		MaxAttempts: w.o.MaxAttempts, Model: w.Model(), Endpoint: w.endpoint()})
	if err != nil {
		w.o.Logger.Warn("message not queued for the model; the rules' facts are stored", "user", string(user), "err", err)
		out.ModelNote = "not queued for the model: " + factbase.ErrorMessage(err)
		return out, nil
	}
	w.stats.enqueued.Add(1)
	out.Job = &j
	if _, why, err := w.overBudget(ctx, user); err == nil && why != "" {
		out.ModelNote = why
	}
	w.Wake()
	return out, nil
}

// nextDay returns the start of the UTC day after t.
func nextDay(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d+1, 0, 0, 0, 0, time.UTC)
}

// Budget is the model's token use today against the pool's daily budgets.
type Budget struct {
	Day             string `json:"day"`               // the UTC day, YYYY-MM-DD
	Tokens          int    `json:"tokens"`            // every user's tokens today
	DailyTokens     int    `json:"daily_tokens"`      // the budget over every user (0: none)
	UserTokens      int    `json:"user_tokens"`       // the user's tokens today (with a user)
	UserDailyTokens int    `json:"user_daily_tokens"` // the budget per user (0: none)
}

// Budget returns today's token use (the user's too, unless user is "") and the
// pool's budgets. A job's tokens count on the UTC day it last ran.
func (w *Workers) Budget(ctx context.Context, user factbase.UserID) (Budget, error) {
	return BudgetOf(ctx, w.js, user, w.o.Now(), w.o.DailyTokens, w.o.UserDailyTokens)
}

// BudgetOf returns the token use on now's UTC day in js (the user's too, unless user
// is "") against the budgets daily and userDaily.
func BudgetOf(ctx context.Context, js factbase.JobStore, user factbase.UserID, now time.Time, daily, userDaily int) (Budget, error) {
	day := nextDay(now).AddDate(0, 0, -1)
	b := Budget{Day: day.Format(time.DateOnly), DailyTokens: daily, UserDailyTokens: userDaily}
	var err error
	if b.Tokens, err = js.JobTokens(ctx, "", day); err != nil {
		return b, err
	}
	if user != "" {
		b.UserTokens, err = js.JobTokens(ctx, user, day)
	}
	return b, err
}

// overBudget returns, when a daily token budget that applies to user is spent, why
// and until when the model's jobs wait; why is "" otherwise.
func (w *Workers) overBudget(ctx context.Context, user factbase.UserID) (until time.Time, why string, err error) {
	if w.o.Extractor == nil || w.o.DailyTokens == 0 && w.o.UserDailyTokens == 0 {
		return time.Time{}, "", nil
	}
	b, err := w.Budget(ctx, user)
	if err != nil {
		return time.Time{}, "", err
	}
	until = nextDay(w.o.Now())
	switch {
	case b.DailyTokens > 0 && b.Tokens >= b.DailyTokens:
		why = fmt.Sprintf("the model's daily token budget is spent (%d of %d tokens today)", b.Tokens, b.DailyTokens)
	case b.UserDailyTokens > 0 && b.UserTokens >= b.UserDailyTokens:
		why = fmt.Sprintf("this user's daily token budget for the model is spent (%d of %d tokens today)", b.UserTokens, b.UserDailyTokens)
	default:
		return time.Time{}, "", nil
	}
	return until, why + "; the model reads the message after " + until.Format(time.RFC3339) +
		", and the rules' facts are stored now", nil
}

// deferJob puts a claimed job off until until, its attempt not counted.
func (w *Workers) deferJob(ctx context.Context, j factbase.Job, until time.Time, why string) {
	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if _, err := w.js.DeferJob(dctx, j.ID, j.Lease, until, why); err != nil {
		w.o.Logger.Warn("defer job", "job", j.ID, "err", err)
		return
	}
	w.stats.deferred.Add(1)
	w.o.Logger.Warn("job put off", "job", j.ID, "user", string(j.User), "until", until.Format(time.RFC3339), "why", why)
}
