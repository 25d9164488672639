package episode

import (
	"strings"
	"testing"

	"github.com/factbase/factbase/bench/cputime"
)

// episode2KB is a realistic agent episode of about 2 KB, written by hand in the style of
// the episodes Factbase stores.
var episode2KB = func() string {
	base := `Session 14 complete: NEXUS v2.3.1 deployed to staging on March 15, 2024 after the
overnight run. Accuracy 94.2% on 500 questions (471/500 questions correct), p50 latency 38 ms,
p95 latency 120 ms, p99: 250 ms. The retrieval accuracy of 91% is below the target and the
test success rate 97% held steady: 42/45 tests passed, 3 tests failed in the ranking module.
Phase 3 IN_PROGRESS; Phase 2 COMPLETE. Migration BLOCKED until the schema review on
2024-03-18. We also bumped the embedder to version 1.4.0 and rebuilt 1,200 episodes.
Notes: the reranker timeout of 500 ms was never hit; the cold start took 1.8 s. Deployment
status: done. Next session will look at the failing cases and the error rate 2.1% seen on
long queries; coverage 83% overall. Sprint 6 is pending review by the team.
`
	var b strings.Builder
	for b.Len() < 2048 {
		b.WriteString(base)
	}
	return b.String()[:2048]
}()

// BenchmarkExtract2KB measures Extract on a dense 2 KB episode (about 35 facts).
func BenchmarkExtract2KB(b *testing.B) {
	b.SetBytes(int64(len(episode2KB)))
	b.ReportAllocs()
	start := cputime.Used()
	for b.Loop() {
		Extract(episode2KB)
	}
	if end := cputime.Used(); start >= 0 && end >= 0 {
		b.ReportMetric(float64(end-start)/float64(b.N), "cpu-ns/op")
	}
}
