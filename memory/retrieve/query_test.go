package retrieve

import "testing"

// TestFactSeeking: a question seeks a fact exactly when it has a phrase naming
// what it asks about.
func TestFactSeeking(t *testing.T) {
	cases := []struct{ name, question, phrase string }{ // phrase "": a narrative question
		{"named version", "What is the NEXUS version?", "NEXUS version"},
		{"past metric", "What was the test success rate?", "test success rate"},
		{"contraction", "What's the p95 latency?", "p95 latency"},
		{"possessive", "What is my email?", "email"},
		{"which measure", "Which version is deployed?", "version is deployed"},
		{"how many", "How many tests passed?", "tests passed"},
		{"when is date", "When is the release date?", "release date"},
		{"bare phrase", "NEXUS version?", "NEXUS version"},
		{"status now", "What is the phase 3 status now?", "phase 3 status"},
		{"why", "Why did the deployment fail?", ""},
		{"what happened", "What happened in the last session?", ""},
		{"what did", "What did we decide about the cache?", ""},
		{"how did", "How did the migration go?", ""},
		{"when did", "When did Martin move to Berlin?", ""},
		{"reason", "What was the reason for the rollback?", ""},
		{"clause", "What is the thing we discussed yesterday with the team?", ""},
		{"tell me about", "Tell me about the launch", ""},
		{"one word", "Hello", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			seeking, phrase := FactSeeking(tc.question)
			if want := tc.phrase != ""; seeking != want || phrase != tc.phrase {
				t.Errorf("FactSeeking(%q) = %v, %q; want %v, %q", tc.question, seeking, phrase, want, tc.phrase)
			}
		})
	}
}
