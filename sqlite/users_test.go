package sqlite_test

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/sqlite"
	"github.com/factbase/factbase/storetest"
)

// fileHas reports whether the database file or its write-ahead log holds s.
func fileHas(t *testing.T, path, s string) bool {
	t.Helper()
	for _, p := range []string{path, path + "-wal"} {
		b, err := os.ReadFile(p)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		if bytes.Contains(bytes.ToLower(b), []byte(s)) {
			return true
		}
	}
	return false
}

// TestEraseUserLeavesNoBytes: after a user is erased, the user's marker is nowhere in
// the database file or its log (not in a freed page, a full-text segment or an old
// log frame), while another user's marker still is.
func TestEraseUserLeavesNoBytes(t *testing.T) {
	s := sqlite.OpenTemp(t, sqlite.Options{})
	e := memory.New(s, memory.Options{})
	a, b := storetest.NewUser(), storetest.NewUser()
	storetest.PopulateUser(t, s, e, a, "zorblat")
	storetest.PopulateUser(t, s, e, b, "quintex")
	if !fileHas(t, s.Path(), "zorblat") {
		t.Fatal("before erasure the marker is not in the files: the scan cannot tell")
	}
	res, err := e.EraseUser(context.Background(), a)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Purged {
		t.Errorf("erasure not purged: %+v", res)
	}
	if fileHas(t, s.Path(), "zorblat") {
		t.Error("after erasure the erased user's marker is still in the database files")
	}
	if !fileHas(t, s.Path(), "quintex") {
		t.Error("after erasure the other user's marker is gone from the files")
	}
}

// TestEraseFactLeavesNoBytes: after one fact is erased, its value is nowhere in the
// database file or its log (the log held the rows' earlier pages), nor in a job that
// mentioned it, while the user's other facts stay.
func TestEraseFactLeavesNoBytes(t *testing.T) {
	s := sqlite.OpenTemp(t, sqlite.Options{})
	e := memory.New(s, memory.Options{})
	u := storetest.NewUser()
	ctx := context.Background()
	res, err := e.Chat.Say(ctx, u, "My email is zorblat@example.com. My favorite teas are Sencha and Quintexchai.")
	if err != nil || res.Result.Stored != 3 {
		t.Fatalf("Say: %+v %v", res, err)
	}
	job, err := s.EnqueueJob(ctx, factbase.Job{ID: "job-erase", User: u, Kind: factbase.JobExtract, MaxAttempts: 1,
		Input: "Remember that my email is zorblat@example.com", Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	if !fileHas(t, s.Path(), "zorblat") {
		t.Fatal("before erasure the value is not in the files: the scan cannot tell")
	}
	email, err := e.Get(ctx, u, "", "contact.email", nil)
	if err != nil || len(email) != 1 {
		t.Fatalf("email: %v %v", email, err)
	}
	del, err := e.Apply(ctx, u, []factbase.Op{{Kind: factbase.OpDelete, ID: email[0].ID}})
	if err != nil || del.Deleted != 1 {
		t.Fatalf("delete: %+v %v", del, err)
	}
	if fileHas(t, s.Path(), "zorblat") {
		t.Error("after erasing the fact its value is still in the database files")
	}
	if !fileHas(t, s.Path(), "quintexchai") {
		t.Error("the user's other facts are gone from the files")
	}
	j, err := s.Job(ctx, job.ID)
	if err != nil {
		t.Fatal(err)
	}
	if j.Input != "" {
		t.Errorf("the job that mentioned the erased value keeps its input %q", j.Input)
	}
}
