package server

import (
	"context"
	"encoding/json"
	"sync"

	"go.lsp.dev/jsonrpc2"
)

// inflight holds the requests being answered, by id, for $/cancelRequest.
type inflight struct {
	mu       sync.Mutex
	requests map[jsonrpc2.ID]*runningRequest
}

type runningRequest struct{ cancel context.CancelFunc }

// start returns the context of request id, which $/cancelRequest cancels, and the function
// to call once it is answered.
func (in *inflight) start(parent context.Context, id jsonrpc2.ID) (context.Context, func()) {
	ctx, cancel := context.WithCancel(parent)
	r := &runningRequest{cancel: cancel}
	in.mu.Lock()
	in.requests[id] = r
	in.mu.Unlock()
	return ctx, func() {
		in.mu.Lock()
		if in.requests[id] == r { // a client may reuse an id
			delete(in.requests, id)
		}
		in.mu.Unlock()
		cancel()
	}
}

func (in *inflight) cancel(id jsonrpc2.ID) {
	in.mu.Lock()
	r := in.requests[id]
	in.mu.Unlock()
	if r != nil {
		r.cancel()
	}
}

type cancelParams struct {
	ID jsonrpc2.ID `json:"id"` // a number or a string
}

// cancelRequest makes a request that is still running answer RequestCancelled.
func (s *Server) cancelRequest(_ context.Context, params json.RawMessage) error {
	var p cancelParams
	if err := decodeParams(params, &p); err != nil {
		return err
	}
	s.inflight.cancel(p.ID)
	return nil
}
