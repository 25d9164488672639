package mcp

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/factbase/factbase"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestWireErrors: an error without a JSON-RPC code (which the SDK would send with
// code 0) becomes an internal error; one with a code keeps it, wrapped or not.
func TestWireErrors(t *testing.T) {
	coded := &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "bad"}
	tests := []struct {
		name string
		err  error
		code int64
	}{
		{"plain", errors.New("boom"), jsonrpc.CodeInternalError},
		{"domain", factbase.Errorf(factbase.EINVALID, "no"), jsonrpc.CodeInternalError},
		{"coded", coded, jsonrpc.CodeInvalidParams},
		{"wrapped", fmt.Errorf("reading: %w", coded), jsonrpc.CodeInvalidParams},
	}
	for _, tc := range tests {
		h := wireErrors(func(context.Context, string, mcpsdk.Request) (mcpsdk.Result, error) { return nil, tc.err })
		_, err := h(context.Background(), "resources/read", nil)
		var wire *jsonrpc.Error
		if !errors.As(err, &wire) || wire.Code != tc.code || wire.Message == "" {
			t.Errorf("%s: wireErrors gave %#v, want code %d", tc.name, err, tc.code)
		}
	}
	h := wireErrors(func(context.Context, string, mcpsdk.Request) (mcpsdk.Result, error) { return nil, nil })
	if _, err := h(context.Background(), "ping", nil); err != nil {
		t.Errorf("no error became %v", err)
	}
}

// TestRPCError maps domain errors to codes and client messages.
func TestRPCError(t *testing.T) {
	tests := []struct {
		err  error
		code int64
		msg  string
	}{
		{factbase.Errorf(factbase.EINVALID, "max_tokens is bad"), jsonrpc.CodeInvalidParams, "max_tokens is bad"},
		{factbase.Errorf(factbase.EFORBIDDEN, "not yours"), jsonrpc.CodeInvalidParams, "not yours"},
		{factbase.Errorf(factbase.ENOTFOUND, "no sheet"), mcpsdk.CodeResourceNotFound, "no sheet"},
		{factbase.Errorf(factbase.EUNAVAILABLE, "down"), jsonrpc.CodeInternalError, "store unavailable: down"},
		{errors.New("disk on fire at /var/lib/x"), jsonrpc.CodeInternalError, "internal error"},
	}
	for _, tc := range tests {
		var wire *jsonrpc.Error
		if err := rpcError(tc.err); !errors.As(err, &wire) || wire.Code != tc.code || wire.Message != tc.msg {
			t.Errorf("rpcError(%v) = %v, want code %d and %q", tc.err, err, tc.code, tc.msg)
		}
	}
}
