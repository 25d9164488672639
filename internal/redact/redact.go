// Package redact removes credentials from URLs before they are logged or shown: the
// endpoint of a model server, the URL of a PostgreSQL database.
package redact

import (
	"net/url"
	"strings"
)

// Mask replaces every secret that URL removes.
const Mask = "xxxxx"

// secretWords are the parts of a query parameter's name that mark its value as a
// secret: api_key, key, access_token, token, client_secret, password, sig,
// X-Amz-Signature, X-Amz-Credential, auth, sessionid and their like.
var secretWords = []string{"key", "token", "secret", "pass", "pwd", "auth", "sig", "credential", "session"}

// URL returns s with its credentials masked: the password of its user information
// (a user name alone is masked too, as some services take a token there), the value
// of every query parameter whose name looks secret (see secretWords), and the
// fragment dropped. Other query parameters (sslmode, api-version) are kept as they
// were written. A string without "://" (a file path) is returned as it is; one that
// does not parse as a URL gives "(unparsable URL)", since it may hold a secret.
func URL(s string) string {
	if !strings.Contains(s, "://") {
		return s
	}
	u, err := url.Parse(s)
	if err != nil {
		return "(unparsable URL)"
	}
	if u.User != nil {
		if _, ok := u.User.Password(); ok {
			u.User = url.UserPassword(u.User.Username(), Mask)
		} else {
			u.User = url.User(Mask)
		}
	}
	u.Fragment, u.RawFragment = "", ""
	u.RawQuery = query(u.RawQuery)
	return u.String()
}

// query masks the values of the secret-looking parameters of the raw query q,
// keeping the order and the encoding of the others.
func query(q string) string {
	if q == "" {
		return ""
	}
	parts := strings.Split(q, "&")
	for i, p := range parts {
		name, _, hasValue := strings.Cut(p, "=")
		if n, err := url.QueryUnescape(name); err == nil {
			name = n
		}
		if hasValue && Secret(name) {
			parts[i] = p[:strings.IndexByte(p, '=')+1] + Mask
		}
	}
	return strings.Join(parts, "&")
}

// Secret reports whether a parameter called name (of a query, of a connection
// string) holds a secret, judged by its name alone.
func Secret(name string) bool {
	name = strings.ToLower(name)
	for _, w := range secretWords {
		if strings.Contains(name, w) {
			return true
		}
	}
	return false
}
