package factbase

import (
	"strings"
	"testing"
	"time"
)

func TestNewKey(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.FixedZone("x", 3600))
	user := UserID("0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c0d")
	secret, k, err := NewKey(user, "laptop", now)
	if err != nil {
		t.Fatalf("NewKey: %v", err)
	}
	if !strings.HasPrefix(secret, KeyPrefix) || len(secret) != len(KeyPrefix)+43 || !LooksLikeKey(secret) {
		t.Errorf("NewKey secret = %q, want fb_ and 43 base64url characters", secret)
	}
	if k.Hash != HashKey(secret) || len(k.Hash) != 64 || strings.Contains(k.Hash, secret) {
		t.Errorf("NewKey hash = %q, want the hex SHA-256 of the secret", k.Hash)
	}
	if !strings.HasPrefix(k.ID, "key_") || k.User != user || k.Name != "laptop" || !k.CreatedAt.Equal(now) || k.CreatedAt.Location() != time.UTC {
		t.Errorf("NewKey record = %+v", k)
	}
	if !k.Matches(secret) || k.Matches(secret+"x") || k.Matches("") {
		t.Errorf("Matches does not tell the secret from others")
	}
	secret2, k2, err := NewKey("", "", now)
	if err != nil {
		t.Fatalf("NewKey(app): %v", err)
	}
	if secret2 == secret || k2.ID == k.ID || k2.Hash == k.Hash {
		t.Errorf("two keys share a secret, id or hash")
	}
	if !k2.Allows(user) || !k.Allows(user) || k.Allows("11111111-2f1d-4c3b-9a8e-5d6f7a8b9c0d") {
		t.Errorf("Allows: an application key allows every user, a user key only its own")
	}
}

func TestNewKeyRefuses(t *testing.T) {
	cases := []struct {
		name string
		user UserID
		key  string
		want string
	}{
		{name: "not a uuid", user: "alice", key: "", want: `user id "alice" is not a UUID`},
		{name: "upper case", user: "0B7C2A4E-2F1D-4C3B-9A8E-5D6F7A8B9C0D", key: "", want: "canonical lower-case"},
		{name: "long name", user: "", key: strings.Repeat("n", 201), want: "longer than 200 bytes"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := NewKey(tc.user, tc.key, time.Now())
			if ErrorCode(err) != EINVALID || !strings.Contains(ErrorMessage(err), tc.want) {
				t.Errorf("NewKey error = %v, want %s containing %q", err, EINVALID, tc.want)
			}
		})
	}
}

func TestLooksLikeKey(t *testing.T) {
	cases := []struct {
		in   string
		want bool
	}{
		{in: "fb_" + strings.Repeat("A", 43), want: true},
		{in: "fb_" + strings.Repeat("-_", 21) + "z", want: true},
		{in: "fb_" + strings.Repeat("A", 42), want: false},
		{in: "fb_" + strings.Repeat("A", 44), want: false},
		{in: "fb_" + strings.Repeat("A", 42) + "=", want: false},
		{in: "xx_" + strings.Repeat("A", 43), want: false},
		{in: "", want: false},
	}
	for _, tc := range cases {
		if got := LooksLikeKey(tc.in); got != tc.want {
			t.Errorf("LooksLikeKey(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}
