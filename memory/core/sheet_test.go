package core_test

import (
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory/core"
)

func TestSheetChanged(t *testing.T) {
	tests := []struct {
		name string
		res  factbase.Result
		want bool
	}{
		{name: "nothing", res: factbase.Result{}, want: false},
		{name: "stored", res: factbase.Result{Stored: 1}, want: true},
		{name: "updated", res: factbase.Result{Updated: 1}, want: true},
		{name: "retracted", res: factbase.Result{Retracted: 1}, want: true},
		{name: "deleted", res: factbase.Result{Deleted: 1}, want: true},
		{name: "duplicate", res: factbase.Result{Duplicates: []factbase.Duplicate{{Key: "k"}}}, want: true},
		{name: "noop (a restatement)", res: factbase.Result{Mutations: []factbase.Mutation{{Action: factbase.NoOp}}}, want: true},
		{name: "move", res: factbase.Result{Mutations: []factbase.Mutation{{Action: factbase.Move}}}, want: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := core.SheetChanged(tc.res); got != tc.want {
				t.Errorf("SheetChanged(%+v) = %v, want %v", tc.res, got, tc.want)
			}
		})
	}
}
