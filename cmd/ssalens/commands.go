package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"

	"github.com/ssalens/ssalens/analysis"
)

var annotateCommand = &command{
	name:    "annotate",
	args:    "[--lang js|ts|tsx] FILE",
	summary: "print a file with SSA versions and φs",
	doc: `
Prints FILE with the SSA version after every occurrence of a local variable (x₂; i₂→₃ where one
occurrence reads and writes) and, at the end of a line where control flow joins, its φ functions
(i₂ ← φ(₁,₃): i₂ is i₁ or i₃, as control came). The functions that are not analyzed, and why,
are printed on stderr as check prints them. FILE is JavaScript, TypeScript or TSX by its
extension, or as --lang says; FILE - reads standard input, JavaScript unless --lang says.`,
	examples: `
ssalens annotate app.js
ssalens annotate component.tsx
ssalens annotate --lang ts script.txt`,
	exits: `
0  printed
2  bad usage, or FILE could not be read or parsed`,
	setup: func(fs *flag.FlagSet) func(*call) int {
		lang := addLangFlag(fs)
		return func(c *call) int {
			r, status := c.analyzeOne(lang)
			if r == nil {
				return status
			}
			if _, err := io.WriteString(c.stdout, r.Annotate()); err != nil {
				return c.fail(err)
			}
			notAnalyzed := &analysis.Checked{Src: r.Src, Lines: r.Lines, Diagnostics: r.NotAnalyzedDiagnostics()}
			writeText(c.stderr, c.args[0], findingsOf(notAnalyzed))
			return exitOK
		}
	},
}

var dumpCommand = &command{
	name:    "dump",
	args:    "[--json | --dot] [--func NAME] [--lang js|ts|tsx] FILE",
	summary: "print the HIR+SSA of the functions of a file",
	doc: `
Prints the HIR+SSA of every function of FILE, or of the functions named NAME: blocks, φs and
instructions, each value named var$version, with a prime for each variable of the function
declared before it with the same name (a let that shadows another: x'$1). With --json, one
JSON object instead: the functions with their φs, values and uses, each variable named with
where it is declared (lines and columns from 1, columns in bytes, as check prints them). With --dot, the control-flow graph of each function for Graphviz, as the Show SSA view
draws it: a box per block with its φs (x₃ ← φ(₁,₂), an operand per predecessor) and
instructions, back edges dashed. FILE - reads standard input, JavaScript unless --lang says.`,
	examples: `
ssalens dump app.js
ssalens dump --func count app.js
ssalens dump --json app.js | jq '.functions[].phis'
ssalens dump --dot --func count app.js | dot -Tsvg > count.svg`,
	exits: `
0  printed
2  bad usage, FILE could not be read or parsed, or no function is named NAME`,
	setup: func(fs *flag.FlagSet) func(*call) int {
		asJSON := fs.Bool("json", false, "print one JSON object")
		asDot := fs.Bool("dot", false, "print each function's control-flow graph for Graphviz")
		name := fs.String("func", "", "only the functions named `NAME`")
		lang := addLangFlag(fs)
		return func(c *call) int {
			if *asJSON && *asDot {
				return c.usageError("--json and --dot exclude each other")
			}
			r, status := c.analyzeOne(lang)
			if r == nil {
				return status
			}
			dump := r.Dump
			switch {
			case *asJSON:
				dump = r.DumpJSON
			case *asDot:
				dump = r.DumpDot
			}
			if err := dump(c.stdout, *name); err != nil {
				return c.fail(fmt.Errorf("%s: %w", c.args[0], err))
			}
			return exitOK
		}
	},
}

var checkCommand = &command{
	name:    "check",
	args:    "[FLAGS] PATH...",
	summary: "print the diagnostics of files and directories; exit 1 on a warning or an error",
	doc: `
Prints the diagnostics of each file PATH names and, in each directory it names, at any depth,
of the files ending in .js .mjs .cjs .jsx .ts .mts .cts .tsx, except TypeScript declaration
files (.d.ts, .d.mts, .d.cts: they have no function bodies), those in node_modules and hidden
directories, and what .gitignore files exclude (those in the directory and below it, and those
of its parents up to the root of its Git repository), and symbolic links; a file or directory
named is checked even if they exclude it, or it is a link, as ripgrep does; PATH - reads
standard input. Each file is JavaScript,
TypeScript or TSX by its extension, or as --lang says for all. The files are analyzed --jobs at
a time, the largest first; the output is in the order of their paths whatever the number of
jobs. While stderr is a terminal, a line there shows the files done, of all, and one at work.

A diagnostic is a read that can see a let, const, class or parameter before its declaration,
or an assignment to a let, const or class before it, or an assignment to a constant (warning),
a stored value no read can observe (hint), a function that is not analyzed and why
(information), or an internal error of ssalens (error). In TypeScript and TSX files, what the
TypeScript compiler reports as errors is left to it: assignments to constants, and uses before
the declaration in the text; run tsc for them. --format text prints one a line, as
file:line:col: severity: message (1-based line, byte column, on the first line counted after a
byte order mark). --format json prints one object:
{"files": [{"path", "diagnostics": [{"line", "column", "endLine", "endColumn", "severity",
"code", "message"}], "error"}]}, columns in bytes, the end just after the span, "error" when
the file could not be read or parsed. --format sarif prints a SARIF 2.1.0 log for code
scanning (columns in UTF-16 code units). A path that cannot be read is reported on stderr and
the others are checked. With --verify, or SSALENS_VERIFY=1 in the environment of any command,
the SSA verifier checks every function built, and a violation is an internal error of that
function.`,
	examples: `
ssalens check .
ssalens check src lib/util.js
ssalens check --format sarif . > ssalens.sarif
ssalens check --jobs 1 --verify src
ssalens check app.js || echo "a warning, or an error"`,
	exits: `
0  no warning or error (hints and information do not count: a function or file not
   analyzed is information)
1  a warning or an error
2  bad usage, or a path could not be read or parsed (even if others had warnings); a syntax
   error is no failure to parse: what it breaks is reported not analyzed`,
	setup: func(fs *flag.FlagSet) func(*call) int {
		verify := fs.Bool("verify", false, "run the SSA verifier on every function; a violation is an internal error (also SSALENS_VERIFY=1)")
		lang := addLangFlag(fs)
		format := fs.String("format", "text", "print `FORMAT`: text, json or sarif")
		jobs := fs.Int("jobs", runtime.GOMAXPROCS(0), "analyze `N` files at a time, as many as cores unless set")
		return func(c *call) int {
			opts := options()
			opts.Verify = opts.Verify || *verify
			return check(c, opts, lang, *format, *jobs)
		}
	},
}

var versionCommand = &command{
	name:     "version",
	args:     "",
	summary:  "print the version (also ssalens --version)",
	doc:      `Prints "ssalens" and the version, as ssalens --version does.`,
	examples: `ssalens version`,
	exits: `
0  printed
2  bad usage`,
	setup: func(*flag.FlagSet) func(*call) int {
		return func(c *call) int {
			if len(c.args) > 0 {
				return c.usageError("unexpected argument %q", c.args[0])
			}
			return printVersion(c.stdout)
		}
	},
}

var helpCommand = &command{
	name:    "help",
	args:    "[COMMAND]",
	summary: "show the commands, or one command's flags, examples and exit statuses",
	doc: `
Without COMMAND, lists the commands and the exit statuses; with one, prints its usage, flags,
examples and exit statuses, as ssalens COMMAND --help does.`,
	examples: `
ssalens help
ssalens help check`,
	exits: `
0  printed
2  bad usage or an unknown COMMAND`,
	setup: func(*flag.FlagSet) func(*call) int {
		return func(c *call) int {
			switch len(c.args) {
			case 0:
				writeHelp(c.stdout)
				return exitOK
			case 1:
				cmd := lookup(c.args[0])
				if cmd == nil {
					return usageError(c.stderr, "", fmt.Sprintf("unknown command %q", c.args[0]))
				}
				cmd.writeHelp(c.stdout)
				return exitOK
			}
			return c.usageError("expected at most one command, got %d arguments", len(c.args))
		}
	},
}

func printVersion(w io.Writer) int {
	fmt.Fprintln(w, "ssalens", version)
	return exitOK
}

// oneFile returns the one operand of a command that takes one file; false after a usage error.
func (c *call) oneFile() (string, bool) {
	switch len(c.args) {
	case 1:
		return c.args[0], true
	case 0:
		c.usageError("no file given")
	default:
		c.usageError("expected one file, got %d", len(c.args))
	}
	return "", false
}

// options are the analysis options the environment sets: SSALENS_VERIFY=1 runs the SSA
// verifier on every function built.
func options() analysis.Options {
	return analysis.Options{Verify: os.Getenv("SSALENS_VERIFY") == "1"}
}

// analyzeOne reads and analyzes the one file the command takes; if it cannot, it says why and
// returns nil and the exit status.
func (c *call) analyzeOne(lang *langFlag) (*analysis.Result, int) {
	file, ok := c.oneFile()
	if !ok {
		return nil, exitError
	}
	r, err := analyzeFile(file, options(), lang, analysis.Analyze)
	if err != nil {
		return nil, c.fail(err)
	}
	return r, exitOK
}

// analyzeFile reads one file and analyzes it with analyze (analysis.Analyze or analysis.Check),
// in the language lang says.
func analyzeFile[T any](file string, opts analysis.Options, lang *langFlag, analyze func([]byte, analysis.Options) (T, error)) (T, error) {
	src, err := readSource(file)
	if err != nil {
		var none T
		return none, err
	}
	opts.Language = lang.of(file)
	r, err := analyze(src, opts)
	if err != nil {
		return r, fmt.Errorf("%s: %w", file, err)
	}
	return r, nil
}

// stdin is the operand that names standard input, as the file to read.
const stdin = "-"

// readSource reads file, or standard input for stdin.
func readSource(file string) ([]byte, error) {
	if file == stdin {
		return io.ReadAll(os.Stdin)
	}
	return os.ReadFile(file)
}

// langFlag is the --lang flag of the commands that read files: the language to parse them in,
// whatever their extensions.
type langFlag struct {
	name string // "": by extension
	lang analysis.Language
}

func addLangFlag(fs *flag.FlagSet) *langFlag {
	l := &langFlag{}
	fs.Var(l, "lang", "parse as `LANG`, js, ts or tsx, whatever the extension (by default .ts, .mts and .cts are ts, .tsx is tsx, any other js)")
	return l
}

func (l *langFlag) String() string { return l.name }

func (l *langFlag) Set(name string) error {
	lang, ok := analysis.LanguageNamed(name)
	if !ok {
		return fmt.Errorf("unknown language %q: want js, ts or tsx", name)
	}
	l.name, l.lang = name, lang
	return nil
}

// of returns the language of file: the flag's, or the one of file's extension.
func (l *langFlag) of(file string) analysis.Language {
	if l.name != "" {
		return l.lang
	}
	lang, _ := analysis.LanguageOfFile(file)
	return lang
}
