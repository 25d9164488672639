package server

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/factbase/factbase"
)

// TestReplyBeforeWriteTimeout: a write that waits for the store past the reply's
// deadline is rolled back and answered (here 504), never left to commit after the
// connection closed; once the store is free, nothing of it was written.
func TestReplyBeforeWriteTimeout(t *testing.T) {
	e := newTestEnv(t, func(o *Options) { o.WriteTimeout = time.Second })
	hold := make(chan struct{})
	held := make(chan struct{})
	go func() {
		// Another user's long transaction holds SQLite's one writer.
		_ = e.store.Update(context.Background(), userB, func(factbase.Tx) error {
			close(held)
			<-hold
			return nil
		})
	}()
	<-held
	r := e.do("POST", "/v1/users/"+userA+"/facts", e.keyA, `{"key": "contact.email", "value": "late@example.com"}`)
	close(hold)
	if r.status != http.StatusGatewayTimeout && r.status != http.StatusServiceUnavailable {
		t.Fatalf("a write stuck behind the writer = %d %s, want 504 or 503", r.status, r.body)
	}
	r.problem(t)
	time.Sleep(100 * time.Millisecond)
	facts, err := e.srv.opts.Engine.Get(context.Background(), userA, "", "contact.email", nil)
	if err != nil || len(facts) != 0 {
		t.Errorf("after the refused write the store holds %v %v, want nothing", facts, err)
	}
}
