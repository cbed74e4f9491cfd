package server

import (
	"context"
	"encoding/json"
	"sync"

	"go.lsp.dev/jsonrpc2"
)

// inflight holds the requests being answered, by id, for $/cancelRequest, and bounds how
// many there are.
type inflight struct {
	mu       sync.Mutex
	requests map[jsonrpc2.ID]*runningRequest
	slots    chan struct{} // one taken by each request until it is answered
}

type runningRequest struct{ cancel context.CancelFunc }

// maxInflight bounds the requests answered at once. An answer is held until the stream takes
// it, and the stream holds at most maxUnsent bytes of them for a client that does not read:
// without a bound, such a client made the server hold every answer it asked for (5.4 GB in a
// user test). Past both bounds, the reading goroutine waits for a request to be answered, so
// the client's writes wait too, as over any pipe.
const maxInflight = 64

func newInflight() inflight {
	return inflight{requests: map[jsonrpc2.ID]*runningRequest{}, slots: make(chan struct{}, maxInflight)}
}

// start returns the context of request id, which $/cancelRequest cancels, and the function
// to call once it is answered. It waits while maxInflight requests are being answered; if
// parent ends first, the context it returns is done.
func (in *inflight) start(parent context.Context, id jsonrpc2.ID) (context.Context, func()) {
	select {
	case in.slots <- struct{}{}:
	case <-parent.Done():
		return parent, func() {}
	}
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
		<-in.slots
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
