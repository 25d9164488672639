package factbase_test

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/factbase/factbase"
)

const user = factbase.UserID("0190d3f2-7a9e-7b1c-8d4e-5f6a7b8c9d0e")

// TestValidate checks each root type's validation: nil for a valid value, EINVALID
// for each way of being invalid.
func TestValidate(t *testing.T) {
	t0 := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	sheet := factbase.FactSheet{ID: "s1", User: user, CreatedAt: t0}
	conflict := factbase.Conflict{ID: "c1", Subject: "user", Key: "k", Status: factbase.ConflictPending}
	job := factbase.Job{ID: "j1", User: user, Kind: factbase.JobRemember, MaxAttempts: 1}
	vec := factbase.Vector{Kind: factbase.KindFact, ID: "f1", Model: "m", Vec: []float32{1}}
	tests := []struct {
		name  string
		err   error
		valid bool
	}{
		{name: "user", err: user.Validate(), valid: true},
		{name: "user not a uuid", err: factbase.UserID("alice").Validate()},
		{name: "user upper case", err: factbase.UserID(strings.ToUpper(string(user))).Validate()},
		{name: "entity", err: factbase.Entity{ID: "e1"}.Validate(), valid: true},
		{name: "entity without id", err: factbase.Entity{Name: "Ann"}.Validate()},
		{name: "conflict", err: conflict.Validate(), valid: true},
		{name: "conflict without key", err: factbase.Conflict{ID: "c1", Subject: "user", Status: factbase.ConflictPending}.Validate()},
		{name: "conflict of unknown status", err: factbase.Conflict{ID: "c1", Subject: "user", Key: "k", Status: "open"}.Validate()},
		{name: "sheet", err: sheet.Validate(time.Hour), valid: true},
		{name: "sheet without id", err: factbase.FactSheet{CreatedAt: t0}.Validate(time.Hour)},
		{name: "sheet without time", err: factbase.FactSheet{ID: "s1"}.Validate(time.Hour)},
		{name: "sheet kept for no time", err: sheet.Validate(0)},
		{name: "key", err: factbase.Key{ID: "key_1", Hash: strings.Repeat("a", 64)}.Validate(), valid: true},
		{name: "key with a short hash", err: factbase.Key{ID: "key_1", Hash: "abc"}.Validate()},
		{name: "job", err: job.Validate(), valid: true},
		{name: "job with a long id", err: factbase.Job{ID: strings.Repeat("x", 65), User: user, Kind: "k", MaxAttempts: 1}.Validate()},
		{name: "job of a bad user", err: factbase.Job{ID: "j", User: "alice", Kind: "k", MaxAttempts: 1}.Validate()},
		{name: "job without kind", err: factbase.Job{ID: "j", User: user, MaxAttempts: 1}.Validate()},
		{name: "job without attempts", err: factbase.Job{ID: "j", User: user, Kind: "k"}.Validate()},
		{name: "lease", err: factbase.ValidateLease(time.Second), valid: true},
		{name: "no lease", err: factbase.ValidateLease(0)},
		{name: "failure", err: factbase.JobFailure{RetryIn: time.Second, Cost: 0.5}.Validate(), valid: true},
		{name: "failure of negative delay", err: factbase.JobFailure{RetryIn: -1}.Validate()},
		{name: "failure of NaN cost", err: factbase.JobFailure{Cost: math.NaN()}.Validate()},
		{name: "outcome", err: factbase.JobOutcome{Result: json.RawMessage(`{"n":1}`), PromptTokens: 3}.Validate(), valid: true},
		{name: "outcome of negative tokens", err: factbase.JobOutcome{CompletionTokens: -1}.Validate()},
		{name: "outcome of a result that is not JSON", err: factbase.JobOutcome{Result: json.RawMessage(`{`)}.Validate()},
		{name: "checkpoint", err: factbase.TranscriptCheckpoint{File: "a.jsonl", Offset: 10, Line: 1}.Validate(), valid: true},
		{name: "checkpoint without file", err: factbase.TranscriptCheckpoint{}.Validate()},
		{name: "checkpoint of negative offset", err: factbase.TranscriptCheckpoint{File: "a.jsonl", Offset: -1}.Validate()},
		{name: "session", err: factbase.TranscriptSession{ID: "s", File: "a.jsonl"}.Validate(), valid: true},
		{name: "session without file", err: factbase.TranscriptSession{ID: "s"}.Validate()},
		{name: "link", err: factbase.TranscriptLink{Subject: "task_a", Session: "s"}.Validate(), valid: true},
		{name: "link without subject", err: factbase.TranscriptLink{Session: "s"}.Validate()},
		{name: "kind", err: factbase.ValidateKind(factbase.KindEpisode), valid: true},
		{name: "unknown kind", err: factbase.ValidateKind("note")},
		{name: "vector", err: vec.Validate(), valid: true},
		{name: "vector of unknown kind", err: factbase.Vector{Kind: "note", Model: "m", Vec: []float32{1}}.Validate()},
		{name: "empty vector", err: factbase.Vector{Kind: factbase.KindFact, Model: "m"}.Validate()},
		{name: "vector without model", err: factbase.Vector{Kind: factbase.KindFact, Vec: []float32{1}}.Validate()},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want := factbase.EINVALID
			if tc.valid {
				want = ""
			}
			if got := factbase.ErrorCode(tc.err); got != want {
				t.Errorf("error %v (code %q), want code %q", tc.err, got, want)
			}
		})
	}
}

func TestJobFilterWithDefaults(t *testing.T) {
	tests := []struct {
		name      string
		in        factbase.JobFilter
		wantLimit int
		wantCode  string
	}{
		{name: "zero limit takes the default", in: factbase.JobFilter{}, wantLimit: factbase.DefaultJobsLimit},
		{name: "limit kept", in: factbase.JobFilter{Limit: 7, State: factbase.JobDead}, wantLimit: 7},
		{name: "largest limit", in: factbase.JobFilter{Limit: factbase.MaxJobsLimit}, wantLimit: factbase.MaxJobsLimit},
		{name: "limit too large", in: factbase.JobFilter{Limit: factbase.MaxJobsLimit + 1}, wantCode: factbase.EINVALID},
		{name: "negative limit", in: factbase.JobFilter{Limit: -1}, wantCode: factbase.EINVALID},
		{name: "unknown state", in: factbase.JobFilter{State: "lost"}, wantCode: factbase.EINVALID},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.in.WithDefaults()
			if code := factbase.ErrorCode(err); code != tc.wantCode {
				t.Fatalf("WithDefaults() error %v, want code %q", err, tc.wantCode)
			}
			if err == nil && got.Limit != tc.wantLimit {
				t.Errorf("WithDefaults().Limit = %d, want %d", got.Limit, tc.wantLimit)
			}
		})
	}
}

func TestJobFailureRecord(t *testing.T) {
	long := strings.Repeat("é", 600) // 1,200 bytes: the cut falls inside a character
	tests := []struct {
		name     string
		in       factbase.JobFailure
		wantCode string
		wantMsg  string
	}{
		{name: "kept", in: factbase.JobFailure{Code: factbase.ETIMEOUT, Message: "slow"}, wantCode: factbase.ETIMEOUT, wantMsg: "slow"},
		{name: "no code is internal", in: factbase.JobFailure{Message: "x"}, wantCode: factbase.EINTERNAL, wantMsg: "x"},
		{name: "invalid UTF-8 and NUL replaced", in: factbase.JobFailure{Code: "c", Message: "a\xffb\x00c"}, wantCode: "c", wantMsg: "a\uFFFDb\uFFFDc"},
		{name: "long message cut at a character", in: factbase.JobFailure{Code: "c", Message: long}, wantCode: "c", wantMsg: strings.Repeat("é", 500) + "…"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, msg := tc.in.Record()
			if code != tc.wantCode || msg != tc.wantMsg {
				t.Errorf("Record() = %q, %q; want %q, %q", code, msg, tc.wantCode, tc.wantMsg)
			}
			if !utf8.ValidString(msg) {
				t.Errorf("Record() message %q is not valid UTF-8", msg)
			}
		})
	}
}

func TestNewJobLease(t *testing.T) {
	a, err := factbase.NewJobLease()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := factbase.NewJobLease()
	if len(a) != 32 || strings.Trim(a, "0123456789abcdef") != "" || a == b {
		t.Errorf("NewJobLease() = %q then %q, want two different 32-digit hex tokens", a, b)
	}
}
