package server

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
)

// BenchmarkHTTP measures requests through the whole stack (loopback TCP, auth,
// huma, engine, SQLite) with parallel clients.
func BenchmarkHTTP(b *testing.B) {
	for _, bc := range []struct {
		name         string
		method, path string
		body         func(i int64) string
	}{
		{name: "list page", method: "GET", path: "/lists/favorites.crypto?limit=10"},
		{name: "facts by key", method: "GET", path: "/facts?key=contact.email"},
		{name: "question", method: "POST", path: "/questions", body: func(int64) string { return `{"text": "What are my favorite cryptos?"}` }},
		{name: "list add", method: "POST", path: "/lists/favorites.crypto", body: func(i int64) string { return fmt.Sprintf(`{"value": "V%d"}`, i%50) }},
		{name: "rank", method: "POST", path: "/lists/favorites.crypto/rank", body: func(i int64) string { return fmt.Sprintf(`{"value": "V%d", "rank": %d}`, i%50, 1+i%5) }},
		{name: "set fact", method: "POST", path: "/facts", body: func(i int64) string { return fmt.Sprintf(`{"key": "contact.email", "value": "a%d@example.com"}`, i%7) }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			e := newBenchEnv(b)
			var n atomic.Int64
			b.SetParallelism(16)
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					i := n.Add(1)
					u := e.users[i%int64(len(e.users))]
					var rd io.Reader
					if bc.body != nil {
						rd = strings.NewReader(bc.body(i))
					}
					req, _ := http.NewRequest(bc.method, e.url+"/v1/users/"+u+bc.path, rd)
					req.Header.Set("Authorization", "Bearer "+e.app)
					req.Header.Set("Content-Type", "application/json")
					res, err := e.client.Do(req)
					if err != nil {
						b.Error(err)
						return
					}
					io.Copy(io.Discard, res.Body)
					res.Body.Close()
					if res.StatusCode != 200 {
						b.Errorf("%s: %d", bc.path, res.StatusCode)
						return
					}
				}
			})
		})
	}
}

// benchEnv is a test server with 100 users, each with a five-member list and an email.
type benchEnv struct {
	*testEnv
	users []string
}

func newBenchEnv(b *testing.B) benchEnv {
	e := benchEnv{testEnv: newTestEnv(b, nil)}
	e.logs = nil
	for i := range 100 {
		u := fmt.Sprintf("%08x-0000-4000-8000-%012x", 0xbe0c0000+i, i)
		e.users = append(e.users, u)
		e.ok("POST", "/v1/users/"+u+"/lists/favorites.crypto", e.app, `{"values": ["V1", "V2", "V3", "V4", "V5"]}`, nil)
		e.ok("POST", "/v1/users/"+u+"/facts", e.app, `{"key": "contact.email", "value": "a@example.com"}`, nil)
	}
	e.client.Transport.(*http.Transport).MaxIdleConnsPerHost = 64
	return e
}
