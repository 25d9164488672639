package storetest

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/factbase/factbase"
)

// testSettings checks a store's settings (factbase.SettingStore): compare-and-swap
// creation, change and deletion, the conflicts of a stale old value, and that of
// several processes creating a setting at once exactly one wins.
func testSettings(t *testing.T, s factbase.Store) {
	ctx := context.Background()
	get := func(t *testing.T, name string) (string, bool) {
		t.Helper()
		v, ok, err := s.Setting(ctx, name)
		if err != nil {
			t.Fatalf("Setting(%q): %v", name, err)
		}
		return v, ok
	}
	if v, ok := get(t, "seal.keys"); ok {
		t.Fatalf("Setting of a new store = %q, true; want none", v)
	}
	long := strings.Repeat("fb1.0a1b2c3d.ÄÖü/+=", 400)
	steps := []struct {
		name       string
		old, value string
		code       string // "" for success
		want       string // the value after; "" for none
	}{
		{"create", "", "v1", "", "v1"},
		{"create again", "", "v2", factbase.ECONFLICT, "v1"},
		{"absent but present", "", "", factbase.ECONFLICT, "v1"},
		{"stale old value", "v0", "v2", factbase.ECONFLICT, "v1"},
		{"change", "v1", "v2", "", "v2"},
		{"same value", "v2", "v2", "", "v2"},
		{"long value", "v2", long, "", long},
		{"delete with a stale value", "v2", "", factbase.ECONFLICT, long},
		{"delete", long, "", "", ""},
		{"delete again", long, "", factbase.ECONFLICT, ""},
		{"change an absent one", "v2", "v3", factbase.ECONFLICT, ""},
		{"absent and absent", "", "", "", ""},
		{"create after deletion", "", "v4", "", "v4"},
	}
	for _, st := range steps {
		err := s.SwapSetting(ctx, "seal.keys", st.old, st.value)
		if factbase.ErrorCode(err) != st.code && !(st.code == "" && err == nil) {
			t.Fatalf("%s: SwapSetting(%.20q, %.20q) = %v, want %q", st.name, st.old, st.value, err, st.code)
		}
		v, ok := get(t, "seal.keys")
		if v != st.want || ok != (st.want != "") {
			t.Fatalf("%s: then Setting = %.20q, %v; want %.20q", st.name, v, ok, st.want)
		}
	}
	if v, ok := get(t, "other"); ok {
		t.Errorf("another name reads %q", v)
	}
	if _, _, err := s.Setting(ctx, ""); factbase.ErrorCode(err) != factbase.EINVALID {
		t.Errorf("Setting(\"\") = %v, want EINVALID", err)
	}
	if err := s.SwapSetting(ctx, "", "", "x"); factbase.ErrorCode(err) != factbase.EINVALID {
		t.Errorf("SwapSetting(\"\") = %v, want EINVALID", err)
	}

	// Two (and then eight) processes starting at once: one creates, the others see
	// ECONFLICT and read the winner's value.
	for _, n := range []int{2, 8} {
		name := fmt.Sprintf("race.%d", n)
		errs := make([]error, n)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				errs[i] = s.SwapSetting(ctx, name, "", fmt.Sprintf("candidate-%d", i))
			}()
		}
		close(start)
		wg.Wait()
		winner := -1
		for i, err := range errs {
			switch {
			case err == nil && winner >= 0:
				t.Errorf("%d racers: candidates %d and %d both created the setting", n, winner, i)
			case err == nil:
				winner = i
			case factbase.ErrorCode(err) != factbase.ECONFLICT:
				t.Errorf("%d racers: candidate %d: %v, want nil or ECONFLICT", n, i, err)
			}
		}
		if winner < 0 {
			t.Fatalf("%d racers: none created the setting: %v", n, errs)
		}
		if v, _ := get(t, name); v != fmt.Sprintf("candidate-%d", winner) {
			t.Errorf("%d racers: the setting is %q, want the winner's, candidate-%d", n, v, winner)
		}
	}
}
