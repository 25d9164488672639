package sealed

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/seal"
)

// maxErrorPlain is the most bytes of a job's error message kept, so that, sealed
// ("fb1." and an 8-digit key id and a dot, then the base64 of a 12-byte nonce, the
// message and a 16-byte tag), it fits the 1000 bytes a store keeps of a message
// (factbase.JobFailure.Record): 13 + ⌈4(712+28)/3⌉ = 1000.
const maxErrorPlain = 712

// EnqueueJob stores j with its input sealed.
func (s *Store) EnqueueJob(ctx context.Context, j factbase.Job) (factbase.Job, error) {
	if _, err := s.keyring(ctx); err != nil {
		return factbase.Job{}, err
	}
	out, err := s.Store.EnqueueJob(ctx, s.sealJob(j))
	return one(ctx, s.openJob)(out, err)
}

// ClaimJob claims a job and opens its texts.
func (s *Store) ClaimJob(ctx context.Context, lease time.Duration, c factbase.JobClaim) (factbase.Job, bool, error) {
	return found(ctx, s.openJob)(s.Store.ClaimJob(ctx, lease, c))
}

// FailJob records a failed attempt with its message sealed. A message longer than
// maxErrorPlain bytes is cut to it (the store's limit is 1000 bytes of the sealed
// message).
func (s *Store) FailJob(ctx context.Context, id, lease string, f factbase.JobFailure) (factbase.Job, error) {
	if err := f.Validate(); err != nil {
		return factbase.Job{}, err
	}
	var err error
	f.Code, f.Message = f.Record()
	if f.Message, err = s.sealMessage(ctx, id, f.Message); err != nil {
		return factbase.Job{}, err
	}
	j, err := s.Store.FailJob(ctx, id, lease, f)
	return one(ctx, s.openJob)(j, err)
}

// DeferJob puts a job off with its reason sealed (cut as FailJob cuts a message).
func (s *Store) DeferJob(ctx context.Context, id, lease string, until time.Time, reason string) (factbase.Job, error) {
	_, reason = factbase.JobFailure{Message: reason}.Record()
	reason, err := s.sealMessage(ctx, id, reason)
	if err != nil {
		return factbase.Job{}, err
	}
	j, err := s.Store.DeferJob(ctx, id, lease, until, reason)
	return one(ctx, s.openJob)(j, err)
}

// sealMessage seals a failure's message for job id, cut to maxErrorPlain bytes. The
// job's user, to which the message is bound, is read from the store.
func (s *Store) sealMessage(ctx context.Context, id, msg string) (string, error) {
	if _, err := s.keyring(ctx); err != nil {
		return "", err
	}
	j, err := s.Store.Job(ctx, id)
	if err != nil {
		return "", err
	}
	if len(msg) > maxErrorPlain {
		n := maxErrorPlain - len("…")
		for n > 0 && !utf8.RuneStart(msg[n]) {
			n--
		}
		msg = msg[:n] + "…"
	}
	s.codec(j.User).seal(id, &msg)
	return msg, nil
}

// RetryJob queues a dead job again and opens its texts.
func (s *Store) RetryJob(ctx context.Context, id string, r factbase.JobRetry) (factbase.Job, error) {
	j, err := s.Store.RetryJob(ctx, id, r)
	return one(ctx, s.openJob)(j, err)
}

// Job returns one job with its texts opened.
func (s *Store) Job(ctx context.Context, id string) (factbase.Job, error) {
	j, err := s.Store.Job(ctx, id)
	return one(ctx, s.openJob)(j, err)
}

// Jobs returns the jobs f selects with their texts opened.
func (s *Store) Jobs(ctx context.Context, f factbase.JobFilter) ([]factbase.Job, error) {
	return all(ctx, s.openJob)(s.Store.Jobs(ctx, f))
}

// CompleteJob marks the job done with its result sealed.
func (t *tx) CompleteJob(ctx context.Context, id, lease string, o factbase.JobOutcome) error {
	if err := o.Validate(); err != nil {
		return err
	}
	o.Result = t.c.sealResult(id, o.Result)
	return t.w.CompleteJob(ctx, id, lease, o)
}

// ScrubJobs empties the jobs of the user that hold any of texts. The store cannot
// search sealed texts, so the user's jobs are read and opened here, and the store
// is asked to scrub exactly those that match, by a sealed text of each (a sealed
// text is unique: its nonce is random). Its cost grows with the user's jobs.
func (t *tx) ScrubJobs(ctx context.Context, texts []string) (int, error) {
	var want []string
	for _, x := range texts {
		if x != "" {
			want = append(want, x)
		}
	}
	if len(want) == 0 {
		return 0, nil
	}
	var tokens []string
	f := factbase.JobFilter{User: factbase.UserID(t.c.user), Limit: factbase.MaxJobsLimit}
	for {
		js, err := t.c.s.Store.Jobs(ctx, f)
		if err != nil {
			return 0, err
		}
		for _, j := range js {
			token := jobToken(j)
			if token == "" {
				continue
			}
			if err := t.c.s.openJob(ctx, &j); err != nil {
				return 0, err
			}
			if holdsAny(want, j.Input, string(j.Result), j.Error) {
				tokens = append(tokens, token)
			}
		}
		if len(js) < f.Limit {
			break
		}
		f.Before = js[len(js)-1].ID
	}
	if len(tokens) == 0 {
		return 0, nil
	}
	return t.w.ScrubJobs(ctx, tokens)
}

// jobToken returns a sealed text of stored job j that no other job holds: its
// input, error or result; "" when it has none (nothing to scrub).
func jobToken(j factbase.Job) string {
	for _, s := range []string{j.Input, j.Error, string(j.Result)} {
		if s = strings.Trim(s, `"`); seal.IsSealed(s) {
			return s
		}
	}
	return ""
}

func holdsAny(texts []string, in ...string) bool {
	for _, s := range in {
		for _, x := range texts {
			if strings.Contains(s, x) {
				return true
			}
		}
	}
	return false
}
