package llm

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"sync"
	"syscall"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/redact"
)

// ProbeTimeout bounds one reachability probe (Client.Probe, Embedder.Probe).
const ProbeTimeout = time.Second

// ProbeInterval is how long a probe's answer is kept: callers within it get the same
// answer without a request, so a readiness check under load does not load the model
// server.
const ProbeInterval = 5 * time.Second

// probe checks that a server answers at all, for a readiness check: GET of its model
// list ({base}/v1/models, which OpenAI, Ollama, vLLM and llama.cpp serve) with the
// bearer key. Any HTTP answer but a 5xx counts as reachable (a 404 from a server
// without the list, a 401 as well: the server is there); a refused or failed
// connection, no answer within ProbeTimeout, or a 5xx does not. The answer is kept
// for ProbeInterval, and one probe at a time is in flight. It is made only when
// asked: nothing probes a server that is not configured. Changes of state are logged:
// unreachable at WARN, reachable (the first answer, or again) at INFO. Safe for
// concurrent use.
type probe struct {
	url     string // {base}/v1/models
	what    string // "model server", "embedding server"
	tr      *transport
	timeout time.Duration    // ProbeTimeout; tests shorten it
	now     func() time.Time // tests replace it

	mu      sync.Mutex
	checked time.Time // when err was learned; zero before the first probe
	err     error
}

func newProbe(url, what string, tr *transport) *probe {
	return &probe{url: url, what: what, tr: tr, timeout: ProbeTimeout, now: time.Now}
}

// check returns the kept answer if it is younger than ProbeInterval, else probes.
// A caller that gives up (ctx canceled) while probing gets its ctx's error, and the
// answer is not kept.
func (p *probe) check(ctx context.Context) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.checked.IsZero() && p.now().Sub(p.checked) < ProbeInterval {
		return p.err
	}
	err := p.get(ctx)
	if errors.Is(ctx.Err(), context.Canceled) {
		return factbase.Errorf(factbase.EUNAVAILABLE, "the %s was not probed: canceled", p.what)
	}
	switch first := p.checked.IsZero(); {
	case err != nil && (first || p.err == nil):
		p.tr.log.Warn("llm: "+p.what+" unreachable", "endpoint", redact.URL(p.url), "model", p.tr.model,
			"reason", factbase.ErrorMessage(err))
	case err == nil && (first || p.err != nil):
		p.tr.log.Info("llm: "+p.what+" reachable", "endpoint", redact.URL(p.url), "model", p.tr.model)
	}
	p.checked, p.err = p.now(), err
	return err
}

// get makes one probe request.
func (p *probe) get(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.url, nil)
	if err != nil {
		return factbase.Errorf(factbase.EINVALID, "the %s's URL is not valid", p.what)
	}
	req.Header.Set("Accept", "application/json")
	if p.tr.key != "" {
		req.Header.Set("Authorization", "Bearer "+p.tr.key)
	}
	resp, err := p.tr.client.Do(req)
	if err != nil {
		var ne net.Error
		if errors.Is(ctx.Err(), context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout() {
			return factbase.Errorf(factbase.ETIMEOUT, "no answer from the %s within %v", p.what, p.timeout)
		}
		return factbase.Errorf(factbase.EUNAVAILABLE, "cannot reach the %s: %s", p.what, connCause(err))
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10)) // lets the connection be reused
	if resp.StatusCode >= 500 {
		return factbase.Errorf(factbase.EUNAVAILABLE, "the %s answered %d %s", p.what, resp.StatusCode, http.StatusText(resp.StatusCode))
	}
	return nil
}

// connCause names why a connection failed, in words that reveal nothing of the
// server's address or credentials: the reason /readyz gives anyone who asks.
func connCause(err error) string {
	var (
		dns  *net.DNSError
		cert *tls.CertificateVerificationError
		ue   *url.Error
	)
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.Is(err, syscall.ECONNRESET):
		return "connection reset"
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return "no route to the host"
	case errors.As(err, &dns):
		if dns.IsNotFound {
			return "unknown host"
		}
		return "cannot resolve the host"
	case errors.As(err, &cert):
		return "its TLS certificate is not trusted"
	case errors.As(err, &ue) && errors.Is(ue.Err, io.EOF):
		return "the connection was closed"
	}
	return "connection failed"
}
