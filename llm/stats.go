package llm

import (
	"errors"
	"math"
	"sync/atomic"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/inflight"
)

// Stats are a client's counters since it was made, for metrics.
type Stats struct {
	Calls       int64                             `json:"calls"`         // CallJSON calls
	OK          int64                             `json:"ok"`            // calls whose answer passed validation
	Requests    int64                             `json:"requests"`      // HTTP requests sent, retries included
	Retries     int64                             `json:"retries"`       // retries after 429, 5xx or a failed connection
	Fallbacks   int64                             `json:"fallbacks"`     // switches from json_schema to JSON mode
	Errors      map[factbase.ModelErrorKind]int64 `json:"errors"`        // failed calls by kind (every kind present)
	Think       int64                             `json:"think"`         // answers whose <think> block was stripped
	InFlight    int64                             `json:"in_flight"`     // requests in flight now
	MaxInFlight int64                             `json:"max_in_flight"` // the most in flight at once so far
	Usage       factbase.ModelUsage               `json:"usage"`         // tokens and cost of every answered request
	Seconds     float64                           `json:"seconds"`       // total time spent in calls
}

type counters struct {
	calls, ok, requests, retries, fallbacks, thinkStripped atomic.Int64
	inFlight                                               inflight.Gauge
	errors                                                 [16]atomic.Int64 // by index in factbase.ModelErrorKinds
	prompt, completion                                     atomic.Int64
	costMicro                                              atomic.Int64 // millionths of a dollar
	nanos                                                  atomic.Int64
}

func (c *counters) observe(u factbase.ModelUsage, err error, d time.Duration) {
	c.prompt.Add(int64(u.PromptTokens))
	c.completion.Add(int64(u.CompletionTokens))
	c.costMicro.Add(int64(math.Round(u.Cost * 1e6)))
	c.nanos.Add(int64(d))
	if err == nil {
		c.ok.Add(1)
		return
	}
	var e *factbase.ModelError
	if errors.As(err, &e) {
		for i, k := range factbase.ModelErrorKinds {
			if k == e.Kind {
				c.errors[i].Add(1)
			}
		}
	}
}

// Stats returns a snapshot of the client's counters.
func (c *Client) Stats() Stats {
	s := Stats{
		Calls: c.stats.calls.Load(), OK: c.stats.ok.Load(), Requests: c.stats.requests.Load(),
		Retries: c.stats.retries.Load(), Fallbacks: c.stats.fallbacks.Load(), Think: c.stats.thinkStripped.Load(),
		InFlight: c.stats.inFlight.Now(), MaxInFlight: c.stats.inFlight.Peak(),
		Usage: factbase.ModelUsage{PromptTokens: int(c.stats.prompt.Load()), CompletionTokens: int(c.stats.completion.Load()),
			Cost: float64(c.stats.costMicro.Load()) / 1e6},
		Seconds: time.Duration(c.stats.nanos.Load()).Seconds(),
		Errors:  make(map[factbase.ModelErrorKind]int64, len(factbase.ModelErrorKinds)),
	}
	for i, k := range factbase.ModelErrorKinds {
		s.Errors[k] = c.stats.errors[i].Load()
	}
	return s
}
