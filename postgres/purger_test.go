package postgres

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/storeerr"
)

// TestPurgerCoalesces: one run at a time; the requests made during a run share the
// one after it; a closed purger runs nothing more.
func TestPurgerCoalesces(t *testing.T) {
	var runs, inFlight, most atomic.Int32
	release := make(chan struct{})
	started := make(chan struct{}, 10)
	p := newPurger(func(ctx context.Context) (bool, error) {
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		if n > most.Load() {
			most.Store(n)
		}
		runs.Add(1)
		started <- struct{}{}
		<-release
		return true, nil
	}, func(time.Duration) time.Duration { return 0 })

	first := p.request()
	<-started
	var wg sync.WaitGroup
	later := make([]*purgeRun, 5)
	for i := range later {
		wg.Add(1)
		go func() { defer wg.Done(); later[i] = p.request() }()
	}
	wg.Wait()
	for i, r := range later {
		if r == first || r != later[0] {
			t.Fatalf("request %d during the first run got its own run or the running one", i)
		}
	}
	release <- struct{}{}
	<-first.done
	<-started
	if r := p.request(); r == later[0] {
		t.Error("a request made while the second run ran was given that run")
	}
	close(release)
	<-later[0].done
	p.wait()
	if got, want := runs.Load(), int32(3); got != want {
		t.Errorf("runs = %d, want %d (the first, one for the five requests during it, one after)", got, want)
	}
	if most.Load() != 1 {
		t.Errorf("%d runs at once, want 1", most.Load())
	}
	if !first.purged || !later[0].purged {
		t.Error("a run's result was not passed on")
	}

	p.close()
	r := p.request()
	<-r.done
	if !errors.Is(r.err, storeerr.ErrClosed) || runs.Load() != 3 {
		t.Errorf("after close: err %v, runs %d; want ErrClosed and no run", r.err, runs.Load())
	}
}

// TestPurgerSpacing: a run requested soon after another waits the pause the last
// run asked for.
func TestPurgerSpacing(t *testing.T) {
	var starts []time.Time
	var mu sync.Mutex
	p := newPurger(func(ctx context.Context) (bool, error) {
		mu.Lock()
		defer mu.Unlock()
		starts = append(starts, time.Now())
		return false, nil
	}, func(time.Duration) time.Duration { return 50 * time.Millisecond })
	defer p.close()
	<-p.request().done
	<-p.request().done
	if gap := starts[1].Sub(starts[0]); gap < 50*time.Millisecond {
		t.Errorf("the second run started %v after the first, want at least 50ms", gap)
	}
}

func TestPurgeMode(t *testing.T) {
	cases := []struct {
		name    string
		mode    PurgeMode
		url     string
		want    PurgeMode
		wantURL string
		bad     bool
	}{
		{name: "default", url: "postgres://h/db?sslmode=disable", want: PurgeVacuum, wantURL: "postgres://h/db?sslmode=disable"},
		{name: "option", mode: PurgeOff, url: "postgres://h/db", want: PurgeOff, wantURL: "postgres://h/db"},
		{name: "URL", url: "postgres://u:p@h/db?factbase_purge=full&sslmode=disable", want: PurgeFull, wantURL: "postgres://u:p@h/db?sslmode=disable"},
		{name: "option over URL", mode: PurgeVacuum, url: "postgres://h/db?factbase_purge=full", want: PurgeVacuum, wantURL: "postgres://h/db"},
		{name: "unknown option", mode: "sometimes", url: "postgres://h/db", bad: true},
		{name: "unknown in URL", url: "postgres://h/db?factbase_purge=always", bad: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, url, err := purgeMode(tc.mode, tc.url)
			if tc.bad {
				if factbase.ErrorCode(err) != factbase.EINVALID {
					t.Errorf("purgeMode(%q, %q) = %v, want %s", tc.mode, tc.url, err, factbase.EINVALID)
				}
				return
			}
			if err != nil || got != tc.want || url != tc.wantURL {
				t.Errorf("purgeMode(%q, %q) = %q, %q, %v; want %q, %q", tc.mode, tc.url, got, url, err, tc.want, tc.wantURL)
			}
		})
	}
}
