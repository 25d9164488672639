// Command load is a small HTTP load generator for "factbase serve": a number of
// concurrent clients send a mix of reads and writes to the /v1 API on loopback and
// it reports throughput and latency percentiles for reads, writes and each kind of
// request.
//
//	go build -o /tmp/factbase ./cmd/factbase && go build -o /tmp/load ./tools/load
//	K=$(/tmp/factbase keys create --db /tmp/load.db --name load)
//	/tmp/factbase serve --db /tmp/load.db &
//	/tmp/load -key $K -c 32 -d 20s              # closed loop: as fast as the server answers
//	/tmp/load -key $K -c 32 -d 20s -rate 500    # a fixed total rate
//
// The load (the same as server.BenchmarkLoad): -users users (200), each seeded with a
// five-member ranked list favorites.crypto and an email. Requests pick a user at
// random; -reads (80%) of them are reads:
//
//	1/2 GET  /v1/users/{u}/lists/favorites.crypto?limit=10   a list page
//	1/4 GET  /v1/users/{u}/facts?key=contact.email           facts by key
//	1/4 POST /v1/users/{u}/questions                          "What are my favorite cryptos?"
//	                                                          (ask; it records a reference
//	                                                          to each fact it answers with)
//
// and the rest writes, over 20 values (so some appends are duplicates, 409, and some
// removals miss, 404; both count as answered):
//
//	3/8 POST   /v1/users/{u}/lists/favorites.crypto          append a value
//	2/8 POST   /v1/users/{u}/lists/favorites.crypto/rank     place a value at rank 1-5
//	1/8 DELETE /v1/users/{u}/lists/favorites.crypto/items/V  remove a value
//	1/8 POST   /v1/users/{u}/facts                           set contact.email
//	1/8 POST   /v1/users/{u}/messages                        "My favorite crypto is V."
//
// Clients run closed-loop (each sends its next request when the last one is
// answered; latency is then about clients / throughput) unless -rate caps the total
// request rate, spread evenly over the clients (an open loop up to the point where
// the server falls behind). A 2 s unmeasured warm-up precedes the measured run.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

func main() {
	var (
		addr    = flag.String("addr", "127.0.0.1:7411", "server address, host:port")
		key     = flag.String("key", os.Getenv("FACTBASE_KEY"), "API key (default $FACTBASE_KEY; empty for a --no-auth server)")
		clients = flag.Int("c", 32, "concurrent clients")
		dur     = flag.Duration("d", 20*time.Second, "duration of the measured run")
		warmup  = flag.Duration("warmup", 2*time.Second, "unmeasured run before it")
		reads   = flag.Float64("reads", 0.8, "fraction of requests that are reads")
		users   = flag.Int("users", 200, "distinct users")
		rate    = flag.Float64("rate", 0, "total requests per second (0: as fast as the clients go)")
		seed    = flag.Bool("seed", true, "seed every user with a list and a fact first")
		jsonOut = flag.Bool("json", false, "print the report as JSON")
		fromSch = flag.Bool("from-schedule", false, "with -rate: measure latency from when each request was due, not from when it was sent, so that time a client spent waiting behind a slow answer counts (no coordinated omission)")
	)
	flag.Usage = func() {
		fmt.Fprint(flag.CommandLine.Output(), usage)
		flag.PrintDefaults()
	}
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	g := &gen{base: "http://" + *addr, key: *key, users: makeUsers(*users),
		client: &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
			MaxIdleConns: *clients * 2, MaxIdleConnsPerHost: *clients * 2, IdleConnTimeout: time.Minute}}, fromSchedule: *fromSch}
	if *seed {
		if err := g.seed(ctx); err != nil {
			fmt.Fprintf(os.Stderr, "load: seeding: %v\n", err)
			os.Exit(1)
		}
	}
	if *warmup > 0 {
		g.run(ctx, *clients, *warmup, *reads, *rate)
	}
	cpu0, cpuErr := g.serverCPU(ctx)
	r := g.run(ctx, *clients, *dur, *reads, *rate)
	if cpu1, err := g.serverCPU(ctx); err == nil && cpuErr == nil && r.Requests > 0 {
		r.ServerCPU = (cpu1 - cpu0) / r.Duration.Seconds()
		r.ServerCPUPerRequest = (cpu1 - cpu0) * 1e6 / float64(r.Requests)
	}
	if *jsonOut {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		enc.Encode(r)
		return
	}
	fmt.Printf("clients %d, %.0f%% reads, %s, rate %s\n", *clients, *reads*100, r.Duration, rateText(*rate))
	if *fromSch && *rate > 0 {
		fmt.Println("latency from when each request was due (-from-schedule)")
	}
	fmt.Printf("throughput %.0f req/s (%d requests, %d errors)\n", r.Throughput, r.Requests, r.Errors)
	if r.ServerCPUPerRequest > 0 {
		fmt.Printf("server CPU %.0f us per request (%.2f cores busy)\n", r.ServerCPUPerRequest, r.ServerCPU)
	}
	for i, c := range append([]classReport{r.Reads, r.Writes}, r.ByRequest...) {
		if i == 2 {
			fmt.Println("by request:")
		}
		fmt.Printf("%-14s n=%-7d p50 %6.2f ms  p90 %6.2f ms  p99 %6.2f ms  max %7.2f ms\n",
			c.Class, c.N, c.P50, c.P90, c.P99, c.Max)
	}
	if r.Errors > 0 {
		fmt.Printf("first error: %s\n", r.FirstError)
		os.Exit(1)
	}
}

const usage = `Usage: load [flags]

Load a running "factbase serve" over HTTP: -c clients send 80% reads (1/2 list pages,
1/4 facts by key, 1/4 questions) and 20% writes (3/8 list appends, 2/8 rank moves,
1/8 removals, 1/8 fact sets, 1/8 messages) for the users -users, each seeded with a
five-member list and an email, closed-loop or at -rate requests per second in total.
It reports throughput, p50/p90/p99/max latency for reads, writes and each kind of
request, and the server's CPU time per request (process_cpu_seconds_total at /metrics).
With -rate, latency is measured from when a request was sent; -from-schedule measures
it from when it was due, which also counts the time a client waited behind a slow
answer (use it to see whether the server keeps up with the rate). A 404 or 409 (a duplicate append, a removal of an absent value) is an
answer, not an error.

`

func rateText(r float64) string {
	if r <= 0 {
		return "unlimited (closed loop)"
	}
	return fmt.Sprintf("%.0f/s", r)
}

// makeUsers returns n deterministic user ids.
func makeUsers(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%08x-0000-4000-8000-%012x", 0x10ad0000+i, i)
	}
	return out
}

var values = []string{"BTC", "ETH", "XMR", "SOL", "ADA", "DOT", "LTC", "XRP", "DOGE", "AVAX",
	"ATOM", "LINK", "UNI", "XLM", "ALGO", "NEAR", "FIL", "ICP", "APT", "ARB"}

type gen struct {
	base   string
	key    string
	users  []string
	client *http.Client
	// fromSchedule measures a rate-capped request's latency from when it was due
	// rather than from when it was sent.
	fromSchedule bool
}

// seed gives every user a ranked list of five and an email.
func (g *gen) seed(ctx context.Context) error {
	for _, u := range g.users {
		if err := g.do(ctx, "POST", "/v1/users/"+u+"/lists/favorites.crypto", map[string]any{"values": values[:5]}); err != nil {
			return err
		}
		if err := g.do(ctx, "POST", "/v1/users/"+u+"/facts", map[string]any{"key": "contact.email", "value": u[:8] + "@example.com"}); err != nil {
			return err
		}
	}
	return nil
}

// do sends one request and reads the whole response; a status >= 400 is an error,
// except 404 and 409, which the random writes provoke on purpose.
func (g *gen) do(ctx context.Context, method, path string, body any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, g.base+path, rd)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if g.key != "" {
		req.Header.Set("Authorization", "Bearer "+g.key)
	}
	res, err := g.client.Do(req)
	if err != nil {
		return err
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode >= 400 && res.StatusCode != http.StatusNotFound && res.StatusCode != http.StatusConflict {
		return fmt.Errorf("%s %s: %d %s", method, path, res.StatusCode, bytes.TrimSpace(b))
	}
	return nil
}

// The kinds of request, in the order of the report.
const (
	kListPage = iota
	kFactGet
	kQuestion
	kListAdd
	kRank
	kRemove
	kFactSet
	kMessage
	nKinds
)

var kindNames = [nKinds]string{"list page", "facts by key", "question", "list add", "rank", "remove", "set fact", "message"}

// request picks one random request of the class: reads are 1/2 list pages, 1/4
// facts by key, 1/4 questions; writes are 3/8 list appends, 2/8 rank moves, 1/8
// removals, 1/8 single-valued sets and 1/8 messages.
func (g *gen) request(rng *rand.Rand, read bool) (kind int, method, path string, body any) {
	u := "/v1/users/" + g.users[rng.IntN(len(g.users))]
	v := values[rng.IntN(len(values))]
	if read {
		switch n := rng.IntN(4); {
		case n < 2:
			return kListPage, "GET", u + "/lists/favorites.crypto?limit=10", nil
		case n == 2:
			return kFactGet, "GET", u + "/facts?key=contact.email", nil
		default:
			return kQuestion, "POST", u + "/questions", map[string]string{"text": "What are my favorite cryptos?"}
		}
	}
	switch n := rng.IntN(8); {
	case n < 3:
		return kListAdd, "POST", u + "/lists/favorites.crypto", map[string]string{"value": v}
	case n < 5:
		return kRank, "POST", u + "/lists/favorites.crypto/rank", map[string]any{"value": v, "rank": 1 + rng.IntN(5)}
	case n < 6:
		return kRemove, "DELETE", u + "/lists/favorites.crypto/items/" + v, nil
	case n < 7:
		return kFactSet, "POST", u + "/facts", map[string]string{"key": "contact.email", "value": fmt.Sprintf("%s-%d@example.com", v, rng.IntN(3))}
	default:
		return kMessage, "POST", u + "/messages", map[string]string{"text": "My favorite crypto is " + v + "."}
	}
}

type classReport struct {
	Class string  `json:"class"`
	N     int     `json:"n"`
	P50   float64 `json:"p50_ms"`
	P90   float64 `json:"p90_ms"`
	P99   float64 `json:"p99_ms"`
	Max   float64 `json:"max_ms"`
}

type report struct {
	Duration   time.Duration `json:"duration"`
	Requests   int           `json:"requests"`
	Errors     int           `json:"errors"`
	FirstError string        `json:"first_error,omitempty"`
	Throughput float64       `json:"throughput"` // requests per second
	Reads      classReport   `json:"reads"`
	Writes     classReport   `json:"writes"`
	ByRequest  []classReport `json:"by_request"` // one per kind of request
	// ServerCPU is the server process's CPU time over the run in cores (from
	// process_cpu_seconds_total at /metrics), ServerCPUPerRequest in microseconds per
	// request; both 0 when /metrics does not have it.
	ServerCPU           float64 `json:"server_cpu_cores,omitempty"`
	ServerCPUPerRequest float64 `json:"server_cpu_us_per_request,omitempty"`
}

// serverCPU reads the server's process_cpu_seconds_total from /metrics.
func (g *gen) serverCPU(ctx context.Context) (float64, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", g.base+"/metrics", nil)
	if err != nil {
		return 0, err
	}
	res, err := g.client.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return 0, err
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "process_cpu_seconds_total "); ok {
			return strconv.ParseFloat(strings.TrimSpace(v), 64)
		}
	}
	return 0, errors.New("no process_cpu_seconds_total at /metrics")
}

// run drives the clients for d and reports.
func (g *gen) run(ctx context.Context, clients int, d time.Duration, reads, rate float64) report {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	var (
		mu           sync.Mutex
		lats         [nKinds][]time.Duration
		errs         int
		firstErr     string
		wg           sync.WaitGroup
		start        = time.Now()
		perClientGap time.Duration
	)
	if rate > 0 {
		perClientGap = time.Duration(float64(clients) / rate * float64(time.Second))
	}
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(i), uint64(time.Now().UnixNano())))
			var my [nKinds][]time.Duration
			myErrs, myFirst := 0, ""
			next := time.Now().Add(time.Duration(rng.Int64N(int64(perClientGap) + 1)))
			for ctx.Err() == nil {
				var due time.Time
				if perClientGap > 0 {
					due = next
					if w := time.Until(next); w > 0 {
						select {
						case <-time.After(w):
						case <-ctx.Done():
						}
						if ctx.Err() != nil {
							break
						}
					}
					next = next.Add(perClientGap)
				}
				read := rng.Float64() < reads
				kind, method, path, body := g.request(rng, read)
				t0 := time.Now()
				err := g.do(ctx, method, path, body)
				lat := time.Since(t0)
				if g.fromSchedule && !due.IsZero() {
					lat = time.Since(due)
				}
				if err != nil {
					if ctx.Err() != nil && errors.Is(err, context.DeadlineExceeded) {
						break
					}
					myErrs++
					if myFirst == "" {
						myFirst = err.Error()
					}
					continue
				}
				my[kind] = append(my[kind], lat)
			}
			mu.Lock()
			for k := range lats {
				lats[k] = append(lats[k], my[k]...)
			}
			errs += myErrs
			if firstErr == "" {
				firstErr = myFirst
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	el := time.Since(start)
	rlat := slices.Concat(lats[:kQuestion+1]...)
	wlat := slices.Concat(lats[kListAdd:]...)
	r := report{Duration: el.Round(time.Millisecond), Requests: len(rlat) + len(wlat), Errors: errs, FirstError: firstErr,
		Reads: summarize("reads", rlat), Writes: summarize("writes", wlat)}
	for k, l := range lats {
		r.ByRequest = append(r.ByRequest, summarize(kindNames[k], l))
	}
	r.Throughput = float64(r.Requests) / el.Seconds()
	return r
}

func summarize(class string, lat []time.Duration) classReport {
	c := classReport{Class: class, N: len(lat)}
	if len(lat) == 0 {
		return c
	}
	slices.Sort(lat)
	q := func(p float64) float64 {
		i := int(p * float64(len(lat)-1))
		return float64(lat[i].Microseconds()) / 1000
	}
	c.P50, c.P90, c.P99, c.Max = q(.5), q(.9), q(.99), float64(lat[len(lat)-1].Microseconds())/1000
	return c
}
