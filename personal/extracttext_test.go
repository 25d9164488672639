package personal

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/factbase/factbase/text"
)

// TestExtractTextSharesParse reads one parse as Say does (another reader's view
// first) and checks that the personal facts, dates and endings are those of the
// string entry points.
func TestExtractTextSharesParse(t *testing.T) {
	now := time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)
	for _, msg := range []string{
		"My sister Ada lives in Rome and her birthday is on June 15th. I'm not vegetarian anymore.",
		"Leo's dog is called Rex; we're meeting next Friday at 15:30.",
		"My email is jamal.k@fastmail.com\xff and I no longer work at Globex",
		strings.Repeat("My brother Tom is 40. ", MaxMessage/20),
	} {
		tp := text.New(msg)
		tp.View(text.Options{Joiners: ".", Quotes: true})
		o := Options{Now: now}
		if got, want := jsonOf(t, ExtractText(tp, o)), jsonOf(t, Extract(msg, o)); got != want {
			t.Errorf("ExtractText(%.40q) = %s, want Extract's %s", msg, got, want)
		}
		if got, want := jsonOf(t, EndingsText(tp)), jsonOf(t, Endings(msg)); got != want {
			t.Errorf("EndingsText(%.40q) = %s, want Endings' %s", msg, got, want)
		}
	}
}

// jsonOf renders v (which holds funcs and pointers) for comparison.
func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
