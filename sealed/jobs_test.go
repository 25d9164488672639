package sealed_test

import (
	"context"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/storetest"
)

// TestJobMessages: a failure's message and a deferral's reason are kept sealed, and
// cut so that, sealed, they fit what a store keeps of a message (1000 bytes): 712
// bytes are kept whole, a longer message is cut at a character to at most 712 with
// "…"; a store's own message (a lease that expired) reads as it is.
func TestJobMessages(t *testing.T) {
	ctx := context.Background()
	s, inner, _ := openSealedSQLite(t, newKey(t))
	u := storetest.NewUser()
	long := strings.Repeat("é", 1500) // 3000 bytes of two-byte characters
	tests := []struct {
		name, msg, want string
		deferIt         bool
	}{
		{"short", "the model timed out", "the model timed out", false},
		{"at the limit", strings.Repeat("x", 712), strings.Repeat("x", 712), false},
		{"long", long, strings.Repeat("é", 354) + "…", false},
		{"long reason", "budget " + long, "budget " + strings.Repeat("é", 351) + "…", true},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			id := "job-" + string(rune('a'+i))
			if _, err := s.EnqueueJob(ctx, factbase.Job{ID: id, User: u, Kind: "k", Input: "in", MaxAttempts: 3}); err != nil {
				t.Fatal(err)
			}
			j, ok, err := s.ClaimJob(ctx, time.Minute, factbase.JobClaim{ID: id})
			if err != nil || !ok {
				t.Fatal(ok, err)
			}
			if tc.deferIt {
				j, err = s.DeferJob(ctx, id, j.Lease, time.Now().Add(time.Hour), tc.msg)
			} else {
				j, err = s.FailJob(ctx, id, j.Lease, factbase.JobFailure{Code: factbase.ETIMEOUT, Message: tc.msg, RetryIn: time.Hour})
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, got := range []factbase.Job{j, must(s.Job(ctx, id))} {
				if got.Error != tc.want || !utf8.ValidString(got.Error) {
					t.Errorf("error %q (%d bytes), want %q (%d bytes)", got.Error, len(got.Error), tc.want, len(tc.want))
				}
			}
			if raw := must(inner.Job(ctx, id)); strings.Contains(raw.Error, "é") || strings.Contains(raw.Error, "model") || len(raw.Error) > 1000 {
				t.Errorf("stored error %q (%d bytes) is not sealed within 1000 bytes", raw.Error, len(raw.Error))
			}
		})
	}
	t.Run("the store's own message", func(t *testing.T) {
		if _, err := s.EnqueueJob(ctx, factbase.Job{ID: "job-lease", User: u, Kind: "k", Input: "in", MaxAttempts: 1}); err != nil {
			t.Fatal(err)
		}
		if _, ok, err := s.ClaimJob(ctx, time.Millisecond, factbase.JobClaim{ID: "job-lease"}); err != nil || !ok {
			t.Fatal(ok, err)
		}
		time.Sleep(5 * time.Millisecond)
		s.ClaimJob(ctx, time.Minute, factbase.JobClaim{ID: "job-lease"}) // makes it dead
		j := must(s.Job(ctx, "job-lease"))
		if j.State != factbase.JobDead || !strings.Contains(j.Error, "lease expired") || j.Input != "in" {
			t.Errorf("job %+v, want dead with the store's message", j)
		}
	})
}

func must[T any](x T, err error) T {
	if err != nil {
		panic(err)
	}
	return x
}
