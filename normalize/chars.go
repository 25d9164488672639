package normalize

// IsDigits reports whether s is one or more ASCII digits: the test the rule-based
// readers (episode, personal, router) share for a number written in digits.
func IsDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
