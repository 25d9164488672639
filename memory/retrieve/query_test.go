package retrieve

import "testing"

func TestFactSeeking(t *testing.T) {
	cases := []struct {
		name     string
		question string
		seeking  bool
		phrase   string
	}{
		{"named version", "What is the NEXUS version?", true, "NEXUS version"},
		{"past metric", "What was the test success rate?", true, "test success rate"},
		{"contraction", "What's the p95 latency?", true, "p95 latency"},
		{"possessive", "What is my email?", true, "email"},
		{"which measure", "Which version is deployed?", true, "version is deployed"},
		{"how many", "How many tests passed?", true, "tests passed"},
		{"when is date", "When is the release date?", true, "release date"},
		{"bare phrase", "NEXUS version?", true, "NEXUS version"},
		{"status now", "What is the phase 3 status now?", true, "phase 3 status"},
		{"why", "Why did the deployment fail?", false, ""},
		{"what happened", "What happened in the last session?", false, ""},
		{"what did", "What did we decide about the cache?", false, ""},
		{"how did", "How did the migration go?", false, ""},
		{"when did", "When did Martin move to Berlin?", false, ""},
		{"reason", "What was the reason for the rollback?", false, ""},
		{"clause", "What is the thing we discussed yesterday with the team?", false, ""},
		{"tell me about", "Tell me about the launch", false, ""},
		{"one word", "Hello", false, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			seeking, phrase := FactSeeking(tc.question)
			if seeking != tc.seeking || phrase != tc.phrase {
				t.Errorf("FactSeeking(%q) = %v, %q; want %v, %q", tc.question, seeking, phrase, tc.seeking, tc.phrase)
			}
		})
	}
}
