package server

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
)

// stream is jsonrpc2's header-framed stream, except that a message whose content is not a
// JSON-RPC message is answered with ParseError or InvalidRequest (id null) and skipped, where
// jsonrpc2's stream would end the connection. Only broken framing ends it.
//
// Messages go out in order from a goroutine of the stream's: writing never waits for the client
// to read, up to maxUnsent bytes. The goroutine that reads the client's messages also writes
// some (the error of a notification, the answer to a message it refuses), and a client may
// write while it does not read (its reading goroutine answering a request of the server's):
// over a pipe with no room, both waited for each other for good.
type stream struct {
	in  *bufio.Reader
	out io.WriteCloser

	mu      sync.Mutex
	changed *sync.Cond // signalled when frames are queued or written, or closing starts
	frames  [][]byte   // to write, in order
	unsent  int        // bytes in frames
	err     error      // the first write error; later frames are dropped
	closing bool
	written chan struct{} // closed once the writer has written or dropped every frame
}

// maxUnsent bounds the bytes of messages a client that does not read makes the server hold;
// past it, writers wait.
const maxUnsent = 64 << 20

func newStream(rwc io.ReadWriteCloser) *stream {
	s := &stream{in: bufio.NewReader(rwc), out: rwc, written: make(chan struct{})}
	s.changed = sync.NewCond(&s.mu)
	go s.write()
	return s
}

// write writes the queued frames until the stream closes.
func (s *stream) write() {
	defer close(s.written)
	for {
		s.mu.Lock()
		for len(s.frames) == 0 && !s.closing {
			s.changed.Wait()
		}
		frames := s.frames
		s.frames = nil
		s.mu.Unlock()
		if len(frames) == 0 {
			return // closing, and all written
		}
		for _, f := range frames {
			s.mu.Lock()
			failed := s.err != nil
			s.mu.Unlock()
			if !failed {
				if _, err := s.out.Write(f); err != nil {
					s.mu.Lock()
					s.err = err
					s.mu.Unlock()
				}
			}
			s.mu.Lock()
			s.unsent -= len(f)
			s.changed.Broadcast()
			s.mu.Unlock()
		}
	}
}

func (s *stream) Read(context.Context) (jsonrpc2.Message, int64, error) {
	for {
		data, err := s.readFrame()
		if err != nil {
			return nil, 0, err
		}
		msg, err := jsonrpc2.DecodeMessage(data)
		if err == nil {
			return msg, int64(len(data)), nil
		}
		code := jsonrpc2.InvalidRequest
		if !json.Valid(data) {
			code = jsonrpc2.ParseError
		}
		if err := s.writeError(jsonrpc2.NewError(code, err.Error())); err != nil {
			return nil, 0, err
		}
	}
}

// maxMessageSize bounds the memory one header can make the server allocate.
const maxMessageSize = 1 << 30

// readFrame reads the headers and returns the content of one message. Headers without a
// Content-Length end the session: where the content ends is then unknown, and reading on would
// take the contents of all later messages for headers, and answer none of them.
func (s *stream) readFrame() ([]byte, error) {
	length := -1
	headers := 0
	for {
		line, err := s.in.ReadString('\n')
		if err != nil {
			return nil, err
		}
		line = strings.TrimSpace(line)
		if line == "" {
			if length >= 0 {
				break
			}
			if headers > 0 {
				return nil, errors.New("a message's headers have no Content-Length")
			}
			continue // blank lines between messages
		}
		headers++
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			return nil, fmt.Errorf("invalid header line %q", line)
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			if length, err = strconv.Atoi(strings.TrimSpace(value)); err != nil || length < 0 || length > maxMessageSize {
				return nil, fmt.Errorf("invalid Content-Length %q", value)
			}
		}
	}
	data := make([]byte, length)
	if _, err := io.ReadFull(s.in, data); err != nil {
		return nil, err
	}
	return data, nil
}

func (s *stream) Write(_ context.Context, msg jsonrpc2.Message) (int64, error) {
	data, err := encodeMessage(msg)
	if err != nil {
		return 0, fmt.Errorf("marshaling message: %w", err)
	}
	return s.writeFrame(data)
}

// encodeMessage encodes msg. A successful response is assembled around its result, which
// jsonrpc2 has encoded already: Response.MarshalJSON would validate it again, which costs as
// much as encoding it for a large result such as a file's inlay hints.
func encodeMessage(msg jsonrpc2.Message) ([]byte, error) {
	r, ok := msg.(*jsonrpc2.Response)
	if !ok || r.Err() != nil || len(r.Result()) == 0 {
		m, ok := msg.(json.Marshaler) // every message type is
		if !ok {
			return nil, fmt.Errorf("cannot marshal %T", msg)
		}
		return m.MarshalJSON()
	}
	id := r.ID()
	idJSON, err := id.MarshalJSON()
	if err != nil {
		return nil, err
	}
	data := make([]byte, 0, len(r.Result())+len(idJSON)+32)
	data = append(data, `{"jsonrpc":"2.0","id":`...)
	data = append(data, idJSON...)
	data = append(data, `,"result":`...)
	data = append(data, r.Result()...)
	return append(data, '}'), nil
}

// writeError sends an error response with a null id, for a message that has no usable id.
func (s *stream) writeError(e *jsonrpc2.Error) error {
	data, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      *int            `json:"id"`
		Error   *jsonrpc2.Error `json:"error"`
	}{JSONRPC: "2.0", Error: e})
	if err != nil {
		return err
	}
	_, err = s.writeFrame(data)
	return err
}

// writeFrame queues data, framed, for the writer; an error is the first error of an earlier
// write.
func (s *stream) writeFrame(data []byte) (int64, error) {
	frame := append([]byte(fmt.Sprintf("Content-Length: %d\r\n\r\n", len(data))), data...)
	s.mu.Lock()
	defer s.mu.Unlock()
	for s.unsent > maxUnsent && s.err == nil && !s.closing {
		s.changed.Wait()
	}
	if s.err != nil {
		return 0, s.err
	}
	if s.closing {
		return 0, io.ErrClosedPipe
	}
	s.frames = append(s.frames, frame)
	s.unsent += len(frame)
	s.changed.Broadcast()
	return int64(len(frame)), nil
}

// closeWait bounds how long Close waits for queued messages to go out (the answer to
// shutdown, say) to a client that may not read them.
const closeWait = 2 * time.Second

// Close writes the queued messages, waiting at most closeWait, and closes the connection.
func (s *stream) Close() error {
	s.mu.Lock()
	s.closing = true
	s.changed.Broadcast()
	s.mu.Unlock()
	select {
	case <-s.written:
	case <-time.After(closeWait):
	}
	return s.out.Close()
}
