package server

import (
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/factbase/factbase/embed"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/sqlite"
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
			e := newBenchEnv(b, 100, `["V1", "V2", "V3", "V4", "V5"]`, nil)
			e.logs = nil
			var n atomic.Int64
			b.SetParallelism(16)
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					i := n.Add(1)
					u := e.users[i%int64(len(e.users))]
					body := ""
					if bc.body != nil {
						body = bc.body(i)
					}
					status, err := e.send(bc.method, "/v1/users/"+u+bc.path, body)
					if err != nil {
						b.Error(err)
						return
					}
					if status != 200 {
						b.Errorf("%s: %d", bc.path, status)
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

// newBenchEnv returns a test server (configured by configure, if not nil) with n
// users, each with the ranked list favorites.crypto of the values in list (a JSON
// array) and an email.
func newBenchEnv(b *testing.B, n int, list string, configure func(*Options)) benchEnv {
	e := benchEnv{testEnv: newTestEnv(b, configure)}
	for i := range n {
		u := fmt.Sprintf("%08x-0000-4000-8000-%012x", 0xbe0c0000+i, i)
		e.users = append(e.users, u)
		e.ok("POST", "/v1/users/"+u+"/lists/favorites.crypto", e.app, `{"values": `+list+`}`, nil)
		e.ok("POST", "/v1/users/"+u+"/facts", e.app, `{"key": "contact.email", "value": "a@example.com"}`, nil)
	}
	e.client.Transport.(*http.Transport).MaxIdleConnsPerHost = 64
	return e
}

// send makes one request with the application key and reads the response away.
func (e benchEnv) send(method, path, body string) (status int, err error) {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, _ := http.NewRequest(method, e.url+path, rd)
	req.Header.Set("Authorization", "Bearer "+e.app)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := e.client.Do(req)
	if err != nil {
		return 0, err
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode, nil
}

// BenchmarkLoad is the load of tools/load run in process, for profiling: 32 clients
// over loopback TCP, 80% reads (list page, facts by key, question) and 20% writes
// (list add, rank, remove, set fact, message), with the engine "factbase serve"
// builds (GloVe embedder, metrics as observer) and a JSON request log at info level.
// One op is one request. Profile it with
//
//	go test -run '^$' -bench Load -benchtime 20000x -cpuprofile /tmp/load.prof ./server/
//
// It reports the read and write p50/p99 it saw as extra metrics (noisy: the clients
// share the CPU with the server).
func BenchmarkLoad(b *testing.B) {
	glove, err := embed.NewGloVe()
	if err != nil {
		b.Fatal(err)
	}
	e := newBenchEnv(b, 200, `["BTC", "ETH", "XMR", "SOL", "ADA"]`, func(o *Options) {
		o.Engine = memory.New(o.Keys.(*sqlite.Store), memory.Options{Observer: o.Metrics, Embedder: glove})
		o.Logger = slog.New(slog.NewJSONHandler(io.Discard, nil))
	})
	var (
		n          atomic.Int64
		mu         sync.Mutex
		rlat, wlat []time.Duration
	)
	b.SetParallelism((32 + runtime.GOMAXPROCS(0) - 1) / runtime.GOMAXPROCS(0))
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		rng := rand.New(rand.NewPCG(uint64(n.Add(1)), 7))
		var myR, myW []time.Duration
		for pb.Next() {
			read := rng.Float64() < 0.8
			method, path, body := loadRequest(rng, e.users, read)
			t0 := time.Now()
			status, err := e.send(method, path, body)
			if err != nil {
				b.Error(err)
				return
			}
			lat := time.Since(t0)
			if status != 200 && status != http.StatusNotFound && status != http.StatusConflict {
				b.Errorf("%s %s: %d", method, path, status)
				return
			}
			if read {
				myR = append(myR, lat)
			} else {
				myW = append(myW, lat)
			}
		}
		mu.Lock()
		rlat, wlat = append(rlat, myR...), append(wlat, myW...)
		mu.Unlock()
	})
	b.StopTimer()
	for _, c := range []struct {
		name string
		lat  []time.Duration
	}{{"read", rlat}, {"write", wlat}} {
		if len(c.lat) == 0 {
			continue
		}
		slices.Sort(c.lat)
		q := func(p float64) float64 { return float64(c.lat[int(p*float64(len(c.lat)-1))].Microseconds()) / 1000 }
		b.ReportMetric(q(.5), c.name+"-p50-ms")
		b.ReportMetric(q(.99), c.name+"-p99-ms")
	}
}

var loadValues = []string{"BTC", "ETH", "XMR", "SOL", "ADA", "DOT", "LTC", "XRP", "DOGE", "AVAX",
	"ATOM", "LINK", "UNI", "XLM", "ALGO", "NEAR", "FIL", "ICP", "APT", "ARB"}

// loadRequest is one random request of tools/load's mix (keep the two in step).
func loadRequest(rng *rand.Rand, users []string, read bool) (method, path, body string) {
	u := "/v1/users/" + users[rng.IntN(len(users))]
	v := loadValues[rng.IntN(len(loadValues))]
	if read {
		switch n := rng.IntN(4); {
		case n < 2:
			return "GET", u + "/lists/favorites.crypto?limit=10", ""
		case n == 2:
			return "GET", u + "/facts?key=contact.email", ""
		default:
			return "POST", u + "/questions", `{"text": "What are my favorite cryptos?"}`
		}
	}
	switch n := rng.IntN(8); {
	case n < 3:
		return "POST", u + "/lists/favorites.crypto", `{"value": "` + v + `"}`
	case n < 5:
		return "POST", u + "/lists/favorites.crypto/rank", fmt.Sprintf(`{"value": %q, "rank": %d}`, v, 1+rng.IntN(5))
	case n < 6:
		return "DELETE", u + "/lists/favorites.crypto/items/" + v, ""
	case n < 7:
		return "POST", u + "/facts", fmt.Sprintf(`{"key": "contact.email", "value": "%s-%d@example.com"}`, v, rng.IntN(3))
	default:
		return "POST", u + "/messages", `{"text": "My favorite crypto is ` + v + `."}`
	}
}
