package main

import (
	"context"
	"flag"
	"io"
	"os"

	"github.com/ssalens/ssalens/server"
)

// serve runs the language server on stdin and stdout (--stdio, which editors pass, is the
// only transport) and exits with the status the LSP asks for.
func serve(args []string) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Bool("stdio", true, "talk LSP on stdin and stdout")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		return errUsage
	}
	os.Exit(server.Serve(context.Background(), stdio{os.Stdin, os.Stdout}, os.Stderr, version))
	return nil
}

// stdio joins stdin and stdout into one connection.
type stdio struct {
	io.Reader
	io.WriteCloser
}

func (s stdio) Close() error { return s.WriteCloser.Close() }
