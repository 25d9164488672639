package router

import (
	"reflect"
	"strings"
	"testing"

	"github.com/factbase/factbase/text"
)

func TestParseTextMatchesParse(t *testing.T) {
	tests := []struct {
		name string
		msg  string
	}{
		{"favorites", "My favorite color is blue. Add “Is This Love” to my favorite songs --json"},
		{"question", "What's my favourite movie?"},
		{"invalid utf-8", "My favorite food is pho\xff and ramen"},
		{"too long", strings.Repeat("a", MaxMessage+1)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want, wantErr := Parse(tc.msg)
			got, err := ParseText(text.New(tc.msg))
			if (err != nil) != (wantErr != nil) || !reflect.DeepEqual(got, want) {
				t.Errorf("ParseText(%q) = %+v, %v, want Parse's %+v, %v", tc.msg, got, err, want, wantErr)
			}
		})
	}
}
