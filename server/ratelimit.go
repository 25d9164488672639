package server

import (
	"math"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/time/rate"
)

// Defaults of the request rate per API key (Options.RateLimit, Options.RateBurst).
const (
	DefaultRateLimit = 20 // requests a second
	DefaultRateBurst = 40
)

// maxLimiters bounds the buckets kept; when full, they are all forgotten (a key then
// starts again with a full bucket, which errs on the side of serving).
const maxLimiters = 10000

// rateLimiter is a token bucket per API key (or per client address when keys are
// off and a limit was set).
type rateLimiter struct {
	limit   rate.Limit
	burst   int
	refused prometheus.Counter

	mu      sync.Mutex
	buckets map[string]*rate.Limiter
}

// newRateLimiter returns the limiter of o, or nil when requests are not limited:
// RateLimit negative, or zero with NoAuth (a loopback server for one person).
func newRateLimiter(o Options, reg *prometheus.Registry) *rateLimiter {
	perSecond := o.RateLimit
	switch {
	case perSecond < 0, perSecond == 0 && o.NoAuth:
		return nil
	case perSecond == 0:
		perSecond = DefaultRateLimit
	}
	burst := o.RateBurst
	if burst <= 0 {
		burst = max(int(math.Ceil(2*perSecond)), 1)
		if o.RateLimit == 0 {
			burst = DefaultRateBurst
		}
	}
	rl := &rateLimiter{limit: rate.Limit(perSecond), burst: burst, buckets: map[string]*rate.Limiter{},
		refused: prometheus.NewCounter(prometheus.CounterOpts{Name: "factbase_http_rate_limited_total",
			Help: "Requests refused with 429 because their API key (or client, without keys) was over its request rate."})}
	if reg != nil {
		reg.MustRegister(rl.refused)
	}
	return rl
}

// take takes one token of who's bucket; when there is none it returns how long
// until there is one. remaining is what is left after the take.
func (rl *rateLimiter) take(who string, now time.Time) (ok bool, remaining int, wait time.Duration) {
	rl.mu.Lock()
	b := rl.buckets[who]
	if b == nil {
		if len(rl.buckets) >= maxLimiters {
			clear(rl.buckets)
		}
		b = rate.NewLimiter(rl.limit, rl.burst)
		rl.buckets[who] = b
	}
	rl.mu.Unlock()
	r := b.ReserveN(now, 1)
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return false, 0, d
	}
	return true, int(b.TokensAt(now)), 0
}

// limitRate is the huma middleware that refuses a request over its key's rate with
// 429, Retry-After and the RateLimit-* headers (IETF draft), and reports the bucket on
// every other /v1 request. It runs after authenticate, which names the key.
func (s *Server) limitRate(ctx huma.Context, next func(huma.Context)) {
	rl := s.limiter
	if rl == nil || len(ctx.Operation().Path) < 4 || ctx.Operation().Path[:4] != "/v1/" {
		next(ctx)
		return
	}
	who := ""
	if ri := reqInfoFrom(ctx.Context()); ri != nil && ri.keyID != "" {
		who = "key:" + ri.keyID
	} else {
		host, _, err := net.SplitHostPort(ctx.RemoteAddr())
		if err != nil {
			host = ctx.RemoteAddr()
		}
		who = "addr:" + host
	}
	ok, remaining, wait := rl.take(who, time.Now())
	ctx.SetHeader("RateLimit-Limit", strconv.Itoa(rl.burst))
	if ok {
		ctx.SetHeader("RateLimit-Remaining", strconv.Itoa(remaining))
		next(ctx)
		return
	}
	rl.refused.Inc()
	secs := strconv.Itoa(int(math.Ceil(wait.Seconds())))
	ctx.SetHeader("RateLimit-Remaining", "0")
	ctx.SetHeader("RateLimit-Reset", secs)
	ctx.SetHeader("Retry-After", secs)
	huma.WriteErr(s.api, ctx, http.StatusTooManyRequests, "too many requests for this API key: at most "+
		strconv.FormatFloat(float64(rl.limit), 'f', -1, 64)+" a second (bursts of "+strconv.Itoa(rl.burst)+"); retry after "+secs+" s")
}
