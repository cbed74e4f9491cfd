// Command ssalens annotates JavaScript with SSA information and serves it to editors.
//
//	ssalens annotate FILE           print FILE with SSA versions and φs
//	ssalens dump [--json] [--func NAME] FILE
//	                                print the HIR+SSA of every function (or one)
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
var errUsage = errors.New("usage: ssalens annotate FILE | dump [--json] [--func NAME] FILE | version")

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
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
	}
	return errUsage
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
	return analysis.Analyze(src)
}
