package server

import (
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory/core"
)

func TestLists(t *testing.T) {
	e := newTestEnv(t, nil)
	base := "/v1/users/" + userA + "/lists/favorites.crypto"
	var res factbase.Result
	e.ok("POST", base, e.keyA, `{"values": ["BTC", "ETH", "XMR"]}`, &res)
	if res.Stored != 3 {
		t.Fatalf("add = %+v, want 3 stored", res)
	}
	for _, f := range res.Facts {
		if f.User != userA {
			t.Errorf("added member %s names user %q, want %s", f.Value, f.User, userA)
		}
	}
	e.ok("POST", base, e.keyA, `{"value": "btc."}`, &res)
	if len(res.Duplicates) != 1 || res.Duplicates[0].Rank != 1 || res.Stored != 0 {
		t.Errorf("adding btc. = %+v, want a duplicate at #1", res)
	}
	e.ok("POST", base+"/rank", e.keyA, `{"value": "XMR", "rank": 1}`, &res)
	if len(res.Mutations) != 1 || res.Mutations[0].Action != factbase.Move || res.Mutations[0].From != 3 || res.Mutations[0].To != 1 {
		t.Errorf("rank XMR 1 = %+v, want MOVE 3 -> 1", res.Mutations)
	}
	if got, want := e.listValues(userA, "favorites.crypto"), "1:XMR 2:BTC 3:ETH"; got != want {
		t.Errorf("list = %q, want %q", got, want)
	}
	var p core.ListPage
	e.ok("GET", base+"?offset=1&limit=1", e.keyA, "", &p)
	if p.Total != 3 || len(p.Items) != 1 || p.Items[0].Value != "BTC" || p.Offset != 1 || p.Limit != 1 {
		t.Errorf("page offset 1 limit 1 = %+v, want BTC of 3", p)
	}
	e.ok("DELETE", base+"/items/BTC", e.keyA, "", &res)
	if got, want := e.listValues(userA, "favorites.crypto"), "1:XMR 2:ETH"; got != want {
		t.Errorf("after removing BTC, list = %q, want %q", got, want)
	}
	// A value with a slash, escaped in the path.
	e.ok("POST", base, e.keyA, `{"value": "A/B"}`, nil)
	e.ok("DELETE", base+"/items/A%2FB", e.keyA, "", &res)
	if len(res.Mutations) != 1 || res.Mutations[0].Value != "A/B" {
		t.Errorf("removing A/B = %+v", res.Mutations)
	}
}
