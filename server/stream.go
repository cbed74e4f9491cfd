package server

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"go.lsp.dev/jsonrpc2"
)

// stream is jsonrpc2's header-framed stream, except that a message whose content is not a
// JSON-RPC message is answered with ParseError or InvalidRequest (id null) and skipped, where
// jsonrpc2's stream would end the connection. Only broken framing ends it.
type stream struct {
	in      *bufio.Reader
	out     io.WriteCloser
	writeMu sync.Mutex
}

func newStream(rwc io.ReadWriteCloser) *stream {
	return &stream{in: bufio.NewReader(rwc), out: rwc}
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

// readFrame reads the headers and returns the content of one message.
func (s *stream) readFrame() ([]byte, error) {
	length := -1
	for {
		line, err := s.in.ReadString('\n')
		if err != nil {
			return nil, err
		}
		line = strings.TrimSpace(line)
		if line == "" {
			if length < 0 {
				continue // blank lines between messages
			}
			break
		}
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

func (s *stream) writeFrame(data []byte) (int64, error) {
	header := fmt.Sprintf("Content-Length: %d\r\n\r\n", len(data))
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	n, err := io.WriteString(s.out, header)
	if err != nil {
		return int64(n), err
	}
	m, err := s.out.Write(data)
	return int64(n + m), err
}

func (s *stream) Close() error { return s.out.Close() }
