// Command ssalens annotates JavaScript with SSA information and serves it to editors.
//
//	ssalens serve [--stdio]         serve the Language Server Protocol on stdin and stdout
//	ssalens annotate FILE           print FILE with SSA versions and φs
//	ssalens dump [--json] [--func NAME] FILE
//	                                print the HIR+SSA of every function (or one)
//	ssalens check FILE...           print diagnostics; exit 1 on a warning or an error
//	ssalens version                 print the version
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/ssalens/ssalens/analysis"
)

const version = "0.1.0"

// errUsage marks bad arguments, which exit with status 2 like unreadable files.
var errUsage = errors.New("usage: ssalens serve [--stdio] | annotate FILE | dump [--json] [--func NAME] FILE | check FILE... | version")

// errFindings makes check exit with status 1.
var errFindings = errors.New("findings")

func main() {
	err := run(os.Args[1:], os.Stdout)
	switch {
	case err == nil:
	case errors.Is(err, errFindings):
		os.Exit(1)
	default:
		fmt.Fprintln(os.Stderr, "ssalens:", err)
		os.Exit(2)
	}
}

func run(args []string, out io.Writer) error {
	if len(args) == 0 {
		return errUsage
	}
	switch args[0] {
	case "version":
		fmt.Fprintln(out, "ssalens", version)
		return nil
	case "annotate":
		r, err := analyzeFile(args[1:], flag.NewFlagSet("annotate", flag.ContinueOnError))
		if err != nil {
			return err
		}
		_, err = io.WriteString(out, r.Annotate())
		return err
	case "dump":
		fs := flag.NewFlagSet("dump", flag.ContinueOnError)
		asJSON := fs.Bool("json", false, "print JSON")
		name := fs.String("func", "", "only the functions with this name")
		r, err := analyzeFile(args[1:], fs)
		if err != nil {
			return err
		}
		if *asJSON {
			return r.DumpJSON(out, *name)
		}
		return r.Dump(out, *name)
	case "check":
		return check(args[1:], out)
	case "serve":
		return serve(args[1:])
	}
	return errUsage
}

// check prints the diagnostics of each file as file:line:col: severity: message, with 1-based
// lines and byte columns.
func check(files []string, out io.Writer) error {
	if len(files) == 0 {
		return errUsage
	}
	found := false
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		r, err := analysis.Analyze(src, analysis.Options{})
		if err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		for _, d := range r.Diagnostics(true) {
			line, col := r.Lines.Position(d.Span.Start, analysis.UTF8)
			fmt.Fprintf(out, "%s:%d:%d: %s: %s\n", file, line+1, col+1, d.Severity, d.Message)
			found = found || d.Severity <= analysis.SeverityWarning
		}
	}
	if found {
		return errFindings
	}
	return nil
}

// analyzeFile parses flags from args, then reads and analyzes the one file they name.
func analyzeFile(args []string, fs *flag.FlagSet) (*analysis.Result, error) {
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		return nil, fmt.Errorf("%v; %w", err, errUsage)
	}
	if fs.NArg() != 1 {
		return nil, errUsage
	}
	src, err := os.ReadFile(fs.Arg(0))
	if err != nil {
		return nil, err
	}
	return analysis.Analyze(src, analysis.Options{})
}
