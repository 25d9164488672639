package server

import (
	"fmt"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// Without keys (Options.NoAuth) the server is reachable by anything that can reach
// loopback, and that includes every web page the person has open: a page can send
// a cross-site request to 127.0.0.1 (a form post needs no preflight) or, by DNS
// rebinding, make its own name resolve to 127.0.0.1 and read the answers. So, when
// no key is asked for:
//   - only a loopback Host (localhost, 127.0.0.0/8, ::1, with any port) or the
//     address the server listens on is served: a rebound name is refused;
//   - a request that changes state (not GET, HEAD or OPTIONS) is refused when it
//     carries an Origin other than its own Host, or a content type a cross-site page
//     can send without a preflight (a form's, or text/plain): the API's bodies are
//     JSON, and the transcript upload JSON Lines.
//
// With keys none of this applies: a page cannot send the Authorization header
// cross-site without a preflight the server does not answer.

// guardNoAuth checks a request served without keys; it writes the refusal and
// returns false when the request is not served.
func (s *Server) guardNoAuth(w http.ResponseWriter, r *http.Request) bool {
	if !s.loopbackHost(r.Host) {
		writeProblem(w, http.StatusForbidden, fmt.Sprintf(
			"host %q is not served without an API key: use localhost or %s, or start the server with keys", clipHeader(r.Host), s.listenAddr()))
		return false
	}
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return true
	}
	if o := r.Header.Get("Origin"); o != "" && !sameOrigin(o, r.Host) {
		writeProblem(w, http.StatusForbidden, fmt.Sprintf(
			"a request from origin %q is refused without an API key: only pages served by this server may change data", clipHeader(o)))
		return false
	}
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || !bodyTypes[mt] {
			writeProblem(w, http.StatusUnsupportedMediaType, fmt.Sprintf(
				"content type %q is refused without an API key: send application/json (a transcript: application/x-ndjson)", clipHeader(ct)))
			return false
		}
	}
	return true
}

// bodyTypes are the media types of the API's request bodies.
var bodyTypes = map[string]bool{"application/json": true, "application/x-ndjson": true}

// loopbackHost reports whether host (a Host header: name or address, with or
// without a port) names this machine's loopback or the listening address.
func (s *Server) loopbackHost(host string) bool {
	if host == "" {
		return false
	}
	if a := s.listenAddr(); a != "" && strings.EqualFold(host, a) {
		return true
	}
	name := host
	if h, _, err := net.SplitHostPort(host); err == nil {
		name = h
	}
	name = strings.TrimSuffix(strings.TrimPrefix(name, "["), "]")
	if strings.EqualFold(name, "localhost") {
		return true
	}
	ip := net.ParseIP(name)
	return ip != nil && ip.IsLoopback()
}

// sameOrigin reports whether origin (scheme://host[:port]) names host.
func sameOrigin(origin, host string) bool {
	u, err := url.Parse(origin)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && strings.EqualFold(u.Host, host)
}

// listenAddr returns the address Serve listens on; "" before Serve.
func (s *Server) listenAddr() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addr
}

// clipHeader shortens a header value for an error message.
func clipHeader(v string) string {
	if len(v) > 100 {
		return v[:100] + "…"
	}
	return v
}
