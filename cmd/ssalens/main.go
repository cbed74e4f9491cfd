// Command ssalens shows JavaScript and TypeScript the way an optimizing compiler sees them: every
// local variable split into its SSA values and the φ functions that merge them, printed
// (annotate, dump, check) or served to editors over the Language Server Protocol (serve).
//
//	ssalens help [COMMAND]    the commands, or one command's flags, examples and exit statuses
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"text/tabwriter"
)

const version = "0.1.0"

// Exit statuses, the same for every command (serve's are the LSP's, see its help).
const (
	exitOK       = 0 // done; check found no warning or error
	exitFindings = 1 // check found a warning or an error
	exitError    = 2 // bad usage, or a file could not be read or parsed
)

// A command is one entry of the table below: adding a command is adding an entry, adding a flag
// is one line in its setup. Flags are parsed by the standard library's flag package with a new
// FlagSet per command and run: no dependency, and the conventional syntax (-name and --name
// alike, --name=value or --name value, -h and --help, -- ends the flags).
type command struct {
	name     string
	args     string // what follows "ssalens NAME" in the usage line
	summary  string // one line, for the list of commands
	doc      string // what the command does, after the usage line of its help
	examples string // one a line
	exits    string // the exit statuses, one a line: "0  when …"
	// setup declares the command's flags on fs and returns the function that runs the command
	// once fs has parsed them.
	setup func(fs *flag.FlagSet) func(c *call) int
}

// commands is the table, in the order 'ssalens help' lists them. It is filled in init because
// help reads it.
var commands []*command

func init() {
	commands = []*command{annotateCommand, dumpCommand, checkCommand, serveCommand, versionCommand, helpCommand}
}

// A call is one run of a command.
type call struct {
	cmd            *command
	args           []string // the operands, without the flags
	stdout, stderr io.Writer
	stderrColumns  int // the width of the terminal that stderr is, or 0 if it is none
}

// fail prints err as the command's error and returns the status for it.
func (c *call) fail(err error) int {
	fmt.Fprintf(c.stderr, "ssalens %s: %v\n", c.cmd.name, err)
	return exitError
}

// usageError prints a usage error of the command and where to read its usage.
func (c *call) usageError(format string, a ...any) int {
	return usageError(c.stderr, c.cmd.name, fmt.Sprintf(format, a...))
}

// usageError prints msg as an error of the command name ("" for ssalens itself), followed by the
// help command that explains its usage, and returns the status for bad usage.
func usageError(stderr io.Writer, name, msg string) int {
	prog := strings.TrimSpace("ssalens " + name)
	help := strings.TrimSpace("ssalens help " + name)
	fmt.Fprintf(stderr, "%s: %s\nRun '%s' for usage.\n", prog, msg, help)
	return exitError
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run runs the command line args (without the program name) and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("ssalens")
	showVersion := fs.Bool("version", false, "print the version")
	switch err := fs.Parse(args); {
	case errors.Is(err, flag.ErrHelp):
		writeHelp(stdout)
		return exitOK
	case err != nil:
		return usageError(stderr, "", flagMessage(err))
	case *showVersion && fs.NArg() > 0:
		return usageError(stderr, "", "--version takes no command")
	case *showVersion:
		return printVersion(stdout)
	case fs.NArg() == 0:
		writeHelp(stderr)
		return exitError
	}
	cmd := lookup(fs.Arg(0))
	if cmd == nil {
		return usageError(stderr, "", fmt.Sprintf("unknown command %q", fs.Arg(0)))
	}
	return cmd.run(fs.Args()[1:], stdout, stderr, terminalColumns(stderr))
}

func lookup(name string) *command {
	for _, cmd := range commands {
		if cmd.name == name {
			return cmd
		}
	}
	return nil
}

// flagMessage returns the flag package's err with the flags spelled as the help spells them,
// --name, rather than -name, and a number it cannot read said so.
func flagMessage(err error) string {
	msg := flagSpelling.ReplaceAllString(err.Error(), "$1 --$2")
	if m, ok := strings.CutSuffix(msg, ": parse error"); ok {
		return m + ": not a whole number"
	}
	return msg
}

var flagSpelling = regexp.MustCompile(`(flag|for|defined:|argument:) -([a-zA-Z][\w-]*)`)

// newFlagSet returns a FlagSet that reports its errors to the caller only.
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// run parses the command's flags from args and runs it; stderrColumns is the width of the
// terminal that stderr is, or 0.
func (cmd *command) run(args []string, stdout, stderr io.Writer, stderrColumns int) int {
	fs := newFlagSet(cmd.name)
	runCommand := cmd.setup(fs)
	operands, err := parseFlags(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		cmd.writeHelp(stdout)
		return exitOK
	}
	if err != nil {
		return usageError(stderr, cmd.name, flagMessage(err))
	}
	return runCommand(&call{cmd: cmd, args: operands, stdout: stdout, stderr: stderr, stderrColumns: stderrColumns})
}

// parseFlags parses args with fs and returns the operands. Flags may also follow operands
// (ssalens check app.js --help): the flag package stops at the first operand, so parsing goes on
// after each one, up to a "--".
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var operands []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return operands, nil
		}
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			return append(operands, rest...), nil
		}
		operands = append(operands, rest[0])
		args = rest[1:]
	}
}

// writeHelp prints the help of ssalens itself: the commands and the exit statuses.
func writeHelp(w io.Writer) {
	fmt.Fprint(w, `ssalens shows JavaScript and TypeScript the way an optimizing compiler sees them: every
local variable split into its SSA values, and the φ functions that merge them where control flow
joins.

Usage:
  ssalens COMMAND [FLAGS] [ARGUMENTS]
  ssalens --version
  ssalens --help

Commands:
`)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, cmd := range commands {
		fmt.Fprintf(tw, "  %s\t%s\n", cmd.name, cmd.summary)
	}
	tw.Flush()
	fmt.Fprintf(w, `
Flags may come before or after the arguments; -name and --name are the same flag.

Exit status:
  %d  success; check found no warning or error
  %d  check found a warning or an error
  %d  bad usage, or a file could not be read or parsed

Run 'ssalens help COMMAND' for a command's flags, examples and exit statuses.
`, exitOK, exitFindings, exitError)
}

// writeHelp prints the command's help: usage line, description, flags, examples, exit statuses.
func (cmd *command) writeHelp(w io.Writer) {
	usage := strings.TrimSpace("ssalens " + cmd.name + " " + cmd.args)
	fmt.Fprintf(w, "Usage: %s\n\n%s\n\nFlags:\n", usage, strings.TrimSpace(cmd.doc))
	fs := newFlagSet(cmd.name)
	cmd.setup(fs)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fs.VisitAll(func(f *flag.Flag) {
		arg, usage := flag.UnquoteUsage(f)
		if arg != "" {
			arg = " " + arg
		}
		if f.DefValue != "" && f.DefValue != "false" {
			usage += fmt.Sprintf(" (default %s)", f.DefValue)
		}
		fmt.Fprintf(tw, "  --%s%s\t%s\n", f.Name, arg, usage)
	})
	fmt.Fprintf(tw, "  -h, --help\tshow this help\n")
	tw.Flush()
	if cmd.examples != "" {
		fmt.Fprintf(w, "\nExamples:\n%s", indent(cmd.examples))
	}
	fmt.Fprintf(w, "\nExit status:\n%s", indent(cmd.exits))
}

// indent indents every line of text by two spaces, ending with a newline.
func indent(text string) string {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	return "  " + strings.Join(lines, "\n  ") + "\n"
}
