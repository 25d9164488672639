package personal

import (
	"strings"
	"testing"
	"time"

	"github.com/factbase/factbase"
)

var benchMessages = []string{
	"My son Leo is 8 and loves dinosaurs. My colleague Martin is vegetarian.",
	"Martin, my son's friend, is allergic to nuts",
	"I fly to Lisbon next Friday and my wife Sarah has a dentist appointment tomorrow at 3pm.",
	"Please keep answers short.",
	"What does Martin eat?",
}

// BenchmarkExtract measures extraction of typical chat messages.
func BenchmarkExtract(b *testing.B) {
	now := time.Date(2026, 3, 4, 9, 30, 0, 0, time.UTC)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		Extract(benchMessages[i%len(benchMessages)], Options{Now: now})
	}
}

// BenchmarkExtract16KB measures the longest message Extract reads.
func BenchmarkExtract16KB(b *testing.B) {
	now := time.Date(2026, 3, 4, 9, 30, 0, 0, time.UTC)
	msg := strings.Repeat(benchMessages[0]+" ", MaxMessage/len(benchMessages[0]))[:MaxMessage]
	b.SetBytes(int64(len(msg)))
	for i := 0; i < b.N; i++ {
		Extract(msg, Options{Now: now})
	}
}

// BenchmarkResolve resolves a mention against 1000 known entities.
func BenchmarkResolve(b *testing.B) {
	known := make([]factbase.Entity, 1000)
	for i := range known {
		known[i] = factbase.Entity{ID: string(rune('a' + i%26)), Name: "Person" + strings.Repeat("x", i%7), Role: factbase.RoleFriend, Relation: "friend"}
	}
	ms := []Mention{{Name: "Martin", Relation: "colleague", Role: factbase.RoleColleague}, {Relation: "son", Role: factbase.RoleChild}}
	for i := 0; i < b.N; i++ {
		Resolve(ms, known)
	}
}
