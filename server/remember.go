package server

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"
	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory/jobs"
)

type jobInput struct {
	ID string `path:"id" maxLength:"64" doc:"The job's id."`
}

type retryInput struct {
	ID       string `path:"id" maxLength:"64" doc:"The job's id."`
	Retarget bool   `query:"retarget" doc:"Queue the job for this server's model (or for none, when it has none) instead of the model it was queued for."`
}

// usage is a user's jobs and model usage, with today's use of the daily budgets.
type usage struct {
	factbase.JobUsage
	Budget jobs.Budget `json:"budget" doc:"Model tokens used today (UTC) by every user and by this user, against the daily budgets (0: none)."`
}

type listJobsInput struct {
	User   string `path:"user" doc:"The user's id, a UUID." example:"0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c0d"`
	State  string `query:"state" enum:"queued,running,done,dead," doc:"Only jobs in this state."`
	Limit  int    `query:"limit" minimum:"1" maximum:"1000" default:"100" doc:"At most this many."`
	Before string `query:"before" maxLength:"64" doc:"Only jobs created before the job with this id (the next page)."`
}

type jobList struct {
	Jobs []factbase.Job `json:"jobs" doc:"Newest first."`
	Next string         `json:"next,omitempty" doc:"When older jobs remain: the before value of the next page (the last job's id)."`
}

func (s *Server) registerRemember() {
	huma.Register(s.api, s.op("remember-message", http.MethodPost, "/v1/users/{user}/memories", tagMemories,
		"Remember a message: the rules now, the model in the background",
		`Stores what the rules find in the message at once, in this request's transaction, and
answers with it (the same as POST /v1/users/{user}/messages). When "factbase serve" has a
model configured (--llm-url, --llm-model), the message is also queued as a durable
extraction job for that model ("job"); every fact the model proposes is checked
(persistence test, subject, a value stated in the message, the write path's validation
and the conflict policy) before it is written, with the job's completion, exactly once.
A model that is down, slow or answers garbage loses nothing the rules stored: the job
is retried and, at last, dead with its reason. Poll GET /v1/jobs/{id} for the model's
outcome. "model_note" says when the model will not read the message, or when it will
(a spent daily token budget).`), s.remember)
	huma.Register(s.api, s.op("get-job", http.MethodGet, "/v1/jobs/{id}", tagJobs, "Get a background job",
		`A job's state (queued, running, done, dead), attempts, last error, model tokens and
cost, and, once done, what it did: the rules' ops, each model proposal's decision with
its reason, and what the write stored. A key for one user sees only that user's jobs.`, http.StatusNotFound), s.getJob)
	huma.Register(s.api, s.op("list-jobs", http.MethodGet, "/v1/users/{user}/jobs", tagJobs, "List a user's background jobs",
		`The user's jobs, newest first, optionally in one state (dead jobs carry their reason).
Paged by a cursor: at most limit jobs (default 100, at most 1000); "next", when older
jobs remain, is the before value of the next page.`), s.listJobs)
	huma.Register(s.api, s.op("get-job-usage", http.MethodGet, "/v1/users/{user}/jobs/usage", tagJobs, "A user's background jobs and model usage",
		`The user's jobs by state, and the prompt and completion tokens and cost (at the
configured prices) of every model call they made, failed attempts included. A fixed-size
answer, summed in the database.`), s.jobUsage)
	huma.Register(s.api, s.op("retry-job", http.MethodPost, "/v1/jobs/{id}/retry", tagJobs, "Retry a dead job",
		`Queues a dead job again with its attempts reset; with retarget=true, for this server's
model instead of the one it was queued for (only a worker with a job's model claims it).
409 if the job is not dead.`, http.StatusNotFound, http.StatusConflict), s.retryJob)
}

// visibleJob returns job id if the request's key may see it; a job of another user is
// not found, so that job ids do not reveal other users' activity.
func (s *Server) visibleJob(ctx context.Context, id string) (factbase.Job, error) {
	j, err := s.opts.Engine.Store().Job(ctx, id)
	if err != nil {
		return j, fail(ctx, err)
	}
	if ri := reqInfoFrom(ctx); ri != nil {
		if ri.keyUser != "" && ri.keyUser != j.User {
			return factbase.Job{}, fail(ctx, factbase.Errorf(factbase.ENOTFOUND, "job %q not found", id))
		}
		ri.userID = string(j.User)
	}
	return j, nil
}

func (s *Server) remember(ctx context.Context, in *messageInput) (*output[jobs.Remembered], error) {
	return forUser(ctx, in.User, func(u factbase.UserID) (jobs.Remembered, error) {
		return s.opts.Workers.Remember(ctx, u, in.Body.Text)
	})
}

func (s *Server) getJob(ctx context.Context, in *jobInput) (*output[factbase.Job], error) {
	j, err := s.visibleJob(ctx, in.ID)
	if err != nil {
		return nil, err
	}
	return &output[factbase.Job]{Body: j}, nil
}

func (s *Server) listJobs(ctx context.Context, in *listJobsInput) (*output[jobList], error) {
	return forUser(ctx, in.User, func(u factbase.UserID) (jobList, error) {
		jobs, next, err := factbase.JobsPage(ctx, s.opts.Engine.Store(),
			factbase.JobFilter{User: u, State: factbase.JobState(in.State), Limit: in.Limit, Before: in.Before})
		if jobs == nil {
			jobs = []factbase.Job{}
		}
		return jobList{Jobs: jobs, Next: next}, err
	})
}

func (s *Server) jobUsage(ctx context.Context, in *userInput) (*output[usage], error) {
	return forUser(ctx, in.User, func(u factbase.UserID) (usage, error) {
		ju, err := s.opts.Engine.Store().JobUsage(ctx, u)
		if err != nil {
			return usage{}, err
		}
		b, err := s.opts.Workers.Budget(ctx, u)
		return usage{JobUsage: ju, Budget: b}, err
	})
}

func (s *Server) retryJob(ctx context.Context, in *retryInput) (*output[factbase.Job], error) {
	if _, err := s.visibleJob(ctx, in.ID); err != nil {
		return nil, err
	}
	c := s.opts.Workers.Claim()
	j, err := s.opts.Engine.Store().RetryJob(ctx, in.ID, factbase.JobRetry{Retarget: in.Retarget, Model: c.Model, Endpoint: c.Endpoint})
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &output[factbase.Job]{Body: j}, nil
}
