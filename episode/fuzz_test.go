package episode

import (
	"slices"
	"testing"
	"unicode/utf8"

	"github.com/factbase/factbase"
)

func FuzzExtract(f *testing.F) {
	for _, s := range []string{
		"Session 14 complete: NEXUS v2.3.1 deployed, accuracy 94.2% on 500 questions, p50 latency 38 ms. Phase 3 IN_PROGRESS.",
		"42/45 tests passed; search p95 latency of 1.2 s; 192.168.1.1; 2024-02-29; March 15, 2024",
		"Status: done. not DONE. Café v1.2 à 90% accuracy",
		"accuracy improved from 90% to 94.2%; 38 ms (p50); 555-123-4567",
		"Phase 99999999999999999999 DONE \xff\xfe v1.2.3 \u00a0latency\u00a0\u00b5s",
		"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Extract(s)
		type kv struct{ k, v string }
		seen := map[kv]bool{}
		for i, fa := range got {
			if fa.Start < 0 || fa.End > len(s) || fa.Start > fa.End {
				t.Fatalf("fact %d %q: span [%d,%d) out of bounds (len %d)", i, fa.Key, fa.Start, fa.End, len(s))
			}
			if fa.Span != s[fa.Start:fa.End] {
				t.Fatalf("fact %d %q: Span %q, want content[%d:%d] = %q", i, fa.Key, fa.Span, fa.Start, fa.End, s[fa.Start:fa.End])
			}
			if err := factbase.ValidateKey(fa.Key); err != nil {
				t.Fatalf("fact %d: key %q: %v", i, fa.Key, err)
			}
			if fa.Value == "" || len(fa.Value) > maxValueLen {
				t.Fatalf("fact %d %q: value %q", i, fa.Key, fa.Value)
			}
			if n := utf8.RuneCountInString(fa.Text); n == 0 || n > factbase.MaxTextLen {
				t.Fatalf("fact %d %q: text of %d runes", i, fa.Key, n)
			}
			if fa.Confidence <= 0 || fa.Confidence > 1 || fa.Rule == "" {
				t.Fatalf("fact %d %q: confidence %v rule %q", i, fa.Key, fa.Confidence, fa.Rule)
			}
			if seen[kv{fa.Key, fa.Value}] {
				t.Fatalf("fact %d: duplicate %s=%s", i, fa.Key, fa.Value)
			}
			seen[kv{fa.Key, fa.Value}] = true
			if i > 0 && got[i-1].Start > fa.Start {
				t.Fatalf("fact %d: out of order (start %d after %d)", i, fa.Start, got[i-1].Start)
			}
		}
		if again := Extract(s); !slices.Equal(again, got) {
			t.Fatalf("Extract is not deterministic: %+v then %+v", got, again)
		}
	})
}
