package memory_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
)

// sayText returns a message of about n bytes of ordinary sentences, every fact in it
// new (numbered values), so that each Say reads and writes.
func sayText(n, round int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		switch i % 4 {
		case 0:
			fmt.Fprintf(&b, "My friend Person%dx%d lives in City%d and works at Company%d. ", i, round, i, i)
		case 1:
			fmt.Fprintf(&b, "I had a long day at work today and the weather was grey again, nothing special happened. ")
		case 2:
			fmt.Fprintf(&b, "My favorite board games are Game%dx%d and Other%dx%d. ", i, round, i, round)
		case 3:
			fmt.Fprintf(&b, "We talked about the plan for the garden for a while and then had dinner. ")
		}
	}
	s := b.String()
	if len(s) > n {
		s = s[:strings.LastIndex(s[:n], ". ")+1]
	}
	return s
}

// BenchmarkSayLength measures Say on messages of 128 bytes, 1 KB and 16 KB (the
// limit) on a real SQLite file: its cost must stay linear in the message's length
// (report ns/op and the derived ns/byte).
func BenchmarkSayLength(b *testing.B) {
	for _, n := range []int{128, 1 << 10, 15 << 10} {
		b.Run(fmt.Sprintf("%dB", n), func(b *testing.B) {
			e := memory.New(openStore(b, "", nil), memory.Options{NoSheetRegen: true})
			u := factbase.UserID("0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c0d")
			msgs := make([]string, b.N)
			for i := range msgs {
				msgs[i] = sayText(n, i)
			}
			b.SetBytes(int64(len(msgs[0])))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := e.Chat.Say(b.Context(), u, msgs[i]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
