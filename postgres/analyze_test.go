package postgres

import (
	"context"
	"errors"
	"testing"
)

func TestAnalyzer(t *testing.T) {
	calls := make(chan struct{}, 10)
	release := make(chan struct{})
	fail := false
	a := newAnalyzer(true, func(ctx context.Context) (float64, error) {
		calls <- struct{}{}
		<-release
		if fail {
			return 0, errors.New("not the owner")
		}
		return 1000, nil
	})
	defer a.close()
	a.wrote(49)
	if len(calls) != 0 {
		t.Fatalf("ANALYZE ran after 49 writes, want after 50")
	}
	a.wrote(1)
	<-calls // the 50th write starts one
	a.wrote(500)
	if len(calls) != 0 {
		t.Errorf("a second ANALYZE started while one runs")
	}
	release <- struct{}{}
	a.wg.Wait()
	if got, want := a.limit.Load(), int64(50+1000/10); got != want {
		t.Errorf("next limit = %d, want %d (50 + 10%% of the rows)", got, want)
	}
	a.wrote(149)
	if len(calls) != 0 {
		t.Errorf("ANALYZE ran after 149 writes, want after 150")
	}
	fail = true
	a.wrote(1)
	<-calls
	release <- struct{}{}
	a.wg.Wait()
	if got := a.limit.Load(); got != 150 {
		t.Errorf("after a failed ANALYZE the limit is %d, want it kept at 150", got)
	}

	off := newAnalyzer(false, func(ctx context.Context) (float64, error) {
		t.Error("ANALYZE ran with autovacuum on")
		return 0, nil
	})
	off.wrote(1000)
	off.close()
}
