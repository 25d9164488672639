package chat

import "testing"

// TestLowerQuestion: a question word's contraction is spelled out.
func TestLowerQuestion(t *testing.T) {
	for _, tc := range []struct{ q, want string }{
		{"When's my dentist appointment?", "when is my dentist appointment?"},
		{"Where’s Kyoto?", "where is kyoto?"},
		{"  What is it? ", "what is it?"},
		{"Whose birthday is it?", "whose birthday is it?"},
	} {
		if got := lowerQuestion(tc.q); got != tc.want {
			t.Errorf("lowerQuestion(%q) = %q, want %q", tc.q, got, tc.want)
		}
	}
}
