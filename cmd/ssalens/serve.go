package main

import (
	"context"
	"flag"
	"io"
	"os"

	"github.com/ssalens/ssalens/server"
)

var serveCommand = &command{
	name:    "serve",
	args:    "[--stdio]",
	summary: "run the language server on stdin and stdout",
	doc: `
Runs the language server: the Language Server Protocol on stdin and stdout, until the client's
exit notification or the end of input, logging to stderr. Editors start it; the VS Code extension
and the Neovim plugin run "ssalens serve". With SSALENS_VERIFY=1 in its environment, the SSA
verifier checks every function the server builds, and a violation is reported as an internal
error of that function.`,
	examples: `ssalens serve --stdio`,
	exits: `
0  the session ended after the client's shutdown request
1  it ended without one: exit or the end of input first (as the LSP asks)
2  bad usage`,
	setup: func(fs *flag.FlagSet) func(*call) int {
		fs.Bool("stdio", true, "LSP on stdin and stdout, the only transport (editors pass it)")
		return func(c *call) int {
			if len(c.args) > 0 {
				return c.usageError("unexpected argument %q", c.args[0])
			}
			// The connection is the process's own stdin and stdout.
			return server.Serve(context.Background(), stdio{os.Stdin, os.Stdout}, c.stderr, server.Config{Version: version, Analysis: options()})
		}
	},
}

// stdio joins stdin and stdout into one connection.
type stdio struct {
	io.Reader
	io.WriteCloser
}

func (s stdio) Close() error { return s.WriteCloser.Close() }
