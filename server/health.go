package server

import (
	"context"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/factbase/factbase"
)

// status is the body of the health checks.
type status struct {
	Status string `json:"status" example:"ok"`
}

type statusOutput struct {
	Body status
}

func (s *Server) registerHealth() {
	huma.Register(s.api, huma.Operation{OperationID: "healthz", Method: http.MethodGet, Path: "/healthz",
		Tags: []string{"Operations"}, Summary: "Liveness",
		Description: "200 while the process serves HTTP. Needs no key."}, s.healthz)
	huma.Register(s.api, huma.Operation{OperationID: "readyz", Method: http.MethodGet, Path: "/readyz",
		Tags: []string{"Operations"}, Summary: "Readiness",
		Description: "200 when the store can be reached, else 503. Needs no key.",
		Errors:      []int{http.StatusServiceUnavailable}}, s.readyz)
}

func (s *Server) healthz(ctx context.Context, _ *struct{}) (*statusOutput, error) {
	return &statusOutput{Body: status{Status: "ok"}}, nil
}

func (s *Server) readyz(ctx context.Context, _ *struct{}) (*statusOutput, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if err := s.opts.Engine.Store().Ping(ctx); err != nil {
		code := factbase.ErrorCode(err)
		if code != factbase.EUNAVAILABLE && code != factbase.ETIMEOUT {
			err = &factbase.Error{Code: factbase.EUNAVAILABLE, Message: "store unavailable", Err: err}
		}
		logger(ctx).Warn("not ready", errAttr(err))
		return nil, huma.NewError(http.StatusServiceUnavailable, "store unavailable: "+factbase.ErrorMessage(err))
	}
	return &statusOutput{Body: status{Status: "ready"}}, nil
}
