package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/ssalens/ssalens/analysis"
)

// Server is one language server session on one connection.
type Server struct {
	conn   jsonrpc2.Conn
	ctx    context.Context // cancelled when the session ends
	log    io.Writer
	config Config

	// The method tables; unknown requests get MethodNotFound and unknown notifications are
	// dropped.
	requests      map[string]requestHandler
	notifications map[string]notificationHandler

	// phase, status and client are only written on the connection's reading goroutine;
	// client is set before any request runs.
	phase  phase
	status int // the exit status, once phase is exited
	client clientCapabilities

	mu    sync.Mutex
	state *snapshot

	diagnostics   *diagnosticsQueue
	progressDelay time.Duration // see progress.go
	idleAfter     time.Duration // see idleDelay
	collecting    atomic.Bool   // a collection collect started is running
	inflight      inflight
	exited        chan struct{} // closed by the exit notification

	// refresh is the state of workspace/inlayHint/refresh (refreshInlayHints): a request is
	// unanswered, another one is wanted.
	refresh struct {
		sync.Mutex
		pending, again bool
	}
	// skipped holds the open documents told that they are not analyzed (publishDiagnostics).
	skipped sync.Map // protocol.DocumentURI → bool
}

// A requestHandler answers a request from the snapshot taken when it arrived. Requests run
// concurrently with each other and with later notifications.
type requestHandler func(ctx context.Context, st *snapshot, params json.RawMessage) (any, error)

// A notificationHandler runs on the reading goroutine, so notifications apply in order.
type notificationHandler func(ctx context.Context, params json.RawMessage) error

// requestCancelled is the LSP's RequestCancelled error code.
const requestCancelled jsonrpc2.Code = -32800

// Config is what the process tells a session.
type Config struct {
	Version  string           // reported to the client
	Analysis analysis.Options // for every document, but the language, which follows its languageId
}

// Serve runs a language server session on rwc until the exit notification, the end of input
// or the cancellation of ctx, logging to log, and returns the process exit status the LSP asks
// for: 0 after a shutdown request, 1 otherwise.
func Serve(ctx context.Context, rwc io.ReadWriteCloser, log io.Writer, config Config) int {
	analysis.LongRunning()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s := newServer(ctx, jsonrpc2.NewConn(newStream(rwc)), log, config)
	return s.serve()
}

func newServer(ctx context.Context, conn jsonrpc2.Conn, log io.Writer, config Config) *Server {
	s := &Server{
		conn:          conn,
		ctx:           ctx,
		log:           log,
		config:        config,
		state:         &snapshot{files: map[protocol.DocumentURI]*file{}, settings: defaultSettings, encoding: utf16Encoding},
		diagnostics:   newDiagnosticsQueue(),
		progressDelay: progressDelay,
		idleAfter:     idleDelay,
		inflight:      newInflight(),
		exited:        make(chan struct{}),
	}
	s.requests = map[string]requestHandler{
		"textDocument/inlayHint":         s.inlayHint,
		"textDocument/hover":             s.hover,
		"textDocument/definition":        s.definition,
		"textDocument/declaration":       s.declaration,
		"textDocument/references":        s.references,
		"textDocument/documentHighlight": s.documentHighlight,
		"workspace/executeCommand":       s.executeCommand,
		"ssalens/showSSA":                s.showSSA,
		"ssalens/functionGraph":          s.functionGraph,
		"ssalens/reachingDefinitions":    s.reachingDefinitions,
		"ssalens/valueReferences":        s.valueReferences,
		"ssalens/unrenamed":              s.unrenamed,
		"textDocument/codeLens":          s.codeLens,
	}
	s.notifications = map[string]notificationHandler{
		"textDocument/didOpen":             s.didOpen,
		"textDocument/didChange":           s.didChange,
		"textDocument/didSave":             s.didSave,
		"textDocument/didClose":            s.didClose,
		"workspace/didChangeConfiguration": s.didChangeConfiguration,
		"$/cancelRequest":                  s.cancelRequest,
		didChangeCursorMethod:              s.didChangeCursor,
	}
	return s
}

// serve handles messages until the session ends and returns the exit status.
func (s *Server) serve() int {
	s.conn.Go(s.ctx, s.handle)
	go s.publishDiagnosticsLoop()
	select {
	case <-s.conn.Done():
		// The reading goroutine, which owns the phase, has stopped. An input that ends is the
		// client's doing; one the server cannot read (a header line that is not one) ends the
		// session too, and says why.
		if err := s.conn.Err(); err != nil && !errors.Is(err, io.EOF) && s.phase != exited {
			s.logf("the session ends: cannot read the client's messages: %v", err)
		}
	case <-s.exited:
	case <-s.ctx.Done():
		s.conn.Close()
		<-s.conn.Done() // the reading goroutine, which owns the phase, has stopped
	}
	s.conn.Close()
	return s.exitStatus()
}

// handle is the connection's handler, called on its reading goroutine for each message. It
// never returns an error, which would close the connection.
func (s *Server) handle(_ context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	switch req := req.(type) {
	case *jsonrpc2.Call:
		s.handleCall(req, reply)
	case *jsonrpc2.Notification:
		s.handleNotification(req)
	}
	return nil
}

func (s *Server) handleCall(call *jsonrpc2.Call, reply jsonrpc2.Replier) {
	method := call.Method()
	if err := s.admit(method); err != nil {
		s.reply(reply, nil, err)
		return
	}
	switch method {
	case "initialize":
		result, err := s.initialize(call.Params())
		s.reply(reply, result, err)
		return
	case "shutdown":
		s.phase = shutDown
		s.reply(reply, nil, nil)
		return
	}
	h, ok := s.requests[method]
	if !ok {
		s.reply(reply, nil, jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "method not found: %s", method))
		return
	}
	st := s.snapshot()
	ctx, done := s.inflight.start(s.ctx, call.ID())
	go func() {
		defer s.recoverPanic("replying to " + method)
		defer done()
		result, err := s.runRequest(ctx, method, h, st, call.Params())
		if ctx.Err() != nil {
			result, err = nil, jsonrpc2.Errorf(requestCancelled, "%s cancelled", method)
		}
		s.reply(reply, result, err)
	}()
}

// runRequest calls h, turning a panic into an InternalError reply.
func (s *Server) runRequest(ctx context.Context, method string, h requestHandler, st *snapshot, params json.RawMessage) (result any, err error) {
	defer func() {
		if r := recover(); r != nil {
			s.reportPanic(method, r)
			result, err = nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "%s: internal error: %v", method, r)
		}
	}()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return h(ctx, st, params)
}

func (s *Server) handleNotification(n *jsonrpc2.Notification) {
	method := n.Method()
	if method == "exit" {
		s.exit()
		return
	}
	h, ok := s.notifications[method]
	if !ok || s.phase != running {
		return // unknown, $/ and out-of-phase notifications are dropped
	}
	defer s.recoverPanic(method)
	if err := h(s.ctx, n.Params()); err != nil {
		s.logError("%s: %v", method, err)
	}
}

// reply sends the answer to a request; errors that carry no JSON-RPC code go out as
// InternalError.
func (s *Server) reply(reply jsonrpc2.Replier, result any, err error) {
	var rpcErr *jsonrpc2.Error
	if err != nil && !errors.As(err, &rpcErr) {
		err = jsonrpc2.NewError(jsonrpc2.InternalError, err.Error())
	}
	if err := reply(context.Background(), result, err); err != nil {
		s.logf("replying: %v", err)
	}
}

func (s *Server) notify(method string, params any) {
	if err := s.conn.Notify(context.Background(), method, params); err != nil {
		s.logf("sending %s: %v", method, err)
	}
}

// decodeParams decodes the params of a message into v; failing is InvalidParams.
func decodeParams(params json.RawMessage, v any) error {
	if err := json.Unmarshal(params, v); err != nil {
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: %v", err)
	}
	return nil
}

func (s *Server) logf(format string, args ...any) {
	fmt.Fprintf(s.log, "ssalens: "+format+"\n", args...)
}

// logError logs to stderr and to the client's log.
func (s *Server) logError(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	s.logf("%s", msg)
	s.notify("window/logMessage", protocol.LogMessageParams{Type: protocol.MessageTypeError, Message: "ssalens: " + msg})
}

// recoverPanic, deferred, keeps a panic in what from ending the server.
func (s *Server) recoverPanic(what string) {
	if r := recover(); r != nil {
		s.reportPanic(what, r)
	}
}

func (s *Server) reportPanic(what string, r any) {
	s.logf("panic in %s: %v\n%s", what, r, debug.Stack())
	s.notify("window/logMessage", protocol.LogMessageParams{Type: protocol.MessageTypeError,
		Message: fmt.Sprintf("ssalens: internal error in %s: %v (the stack is in the server's stderr)", what, r)})
}
