package router

import "testing"

func TestCorrection(t *testing.T) {
	tests := []struct {
		name, msg string
		want      Fix
		wantOK    bool
	}{
		{name: "meant", msg: "Sorry, I meant Basel.", want: Fix{Value: "Basel", Strong: true}, wantOK: true},
		{name: "it's number", msg: "Sorry, it's 555-0112.", want: Fix{Value: "555-0112"}, wantOK: true},
		{name: "value not wrong", msg: "Actually, it's Norwegian, not Danish.", want: Fix{Value: "Norwegian", Not: "Danish", Strong: true}, wantOK: true},
		{name: "not wrong value", msg: "No, sorry, not eggs, milk.", want: Fix{Value: "milk", Not: "eggs", Strong: true}, wantOK: true},
		{name: "meant not", msg: "Oops, I meant painting, not pottery.", want: Fix{Value: "painting", Not: "pottery", Strong: true}, wantOK: true},
		{name: "make that", msg: "Make that Linz.", want: Fix{Value: "Linz", Strong: true}, wantOK: true},
		{name: "bare number", msg: "Sorry, 555-0113", want: Fix{Value: "555-0113"}, wantOK: true},
		{name: "bare word", msg: "Sorry, Dad.", wantOK: false},
		{name: "question", msg: "Sorry, is it Milan?", wantOK: false},
		{name: "fine", msg: "Actually, it's fine.", wantOK: false},
		{name: "no worries", msg: "No worries, thanks!", wantOK: false},
		{name: "clause", msg: "Make that Linz, I always mix them up.", wantOK: false},
		{name: "statement", msg: "I live in Basel.", wantOK: false},
		{name: "no lead", msg: "It's Basel.", wantOK: false},
		{name: "long", msg: "Sorry, I meant the big red house on the corner.", wantOK: false},
		{name: "pronoun", msg: "Sorry, I'm tired.", wantOK: false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := Correction(tc.msg)
			if ok != tc.wantOK || ok && got != tc.want {
				t.Errorf("Correction(%q) = %+v, %v, want %+v, %v", tc.msg, got, ok, tc.want, tc.wantOK)
			}
		})
	}
}
