package npmtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
	"unicode/utf8"
)

// ESLintVersion is the ESLint the comparisons run: a 9.x release, which has
// no-useless-assignment and runs on Node 18.18 and later.
const ESLintVersion = "9.39.5"

// eslintTimeout bounds one ESLint run.
const eslintTimeout = 5 * time.Minute

// ESLint returns the path of eslint.js, installing ESLint into os.UserCacheDir()/ssalens-eslint
// (SSALENS_ESLINT_DIR overrides it) on first use.
func ESLint(tb testing.TB) string {
	tb.Helper()
	dir := Install(tb, "ssalens-eslint", "SSALENS_ESLINT_DIR", "eslint@"+ESLintVersion)
	bin := filepath.Join(dir, "node_modules", "eslint", "bin", "eslint.js")
	if out, err := exec.Command("node", bin, "--version").CombinedOutput(); err != nil {
		tb.Skipf("eslint: %s --version failed (node too old?): %v\n%s", bin, err, out)
	}
	return bin
}

// ESLintMessage is one message of ESLint's JSON output.
type ESLintMessage struct {
	RuleID  *string `json:"ruleId"`
	Fatal   bool    `json:"fatal"`
	Message string  `json:"message"`
	Line    int     `json:"line"`
	Column  int     `json:"column"`
}

// ESLintCommand returns the command that lints files, slash-separated paths relative to root,
// in one run, with a flat configuration (written into configDir) that enables only
// no-useless-assignment, for scripts except the files listed in modules, and prints JSON.
// Inline configuration comments in the files neither disable the rule nor enable others.
func ESLintCommand(ctx context.Context, eslint, root string, files, modules []string, configDir string) (*exec.Cmd, error) {
	mods, err := json.Marshal(modules)
	if err != nil {
		return nil, err
	}
	config := `export default [
  {
    files: ["**/*.js"],
    languageOptions: { ecmaVersion: "latest", sourceType: "script" },
    linterOptions: { noInlineConfig: true, reportUnusedDisableDirectives: "off" },
    rules: { "no-useless-assignment": "error" },
  },
  { files: ` + string(mods) + `, languageOptions: { sourceType: "module" } },
];
`
	configFile := filepath.Join(configDir, "eslint.config.mjs")
	if err := os.WriteFile(configFile, []byte(config), 0o644); err != nil {
		return nil, err
	}
	args := append([]string{eslint, "--config", configFile, "--format", "json"}, files...)
	cmd := exec.CommandContext(ctx, "node", args...)
	cmd.Dir = root
	return cmd, nil
}

// RunESLint runs ESLintCommand and returns the rule's messages by absolute file path.
func RunESLint(eslint, root string, files, modules []string, configDir string) (map[string][]ESLintMessage, error) {
	ctx, cancel := context.WithTimeout(context.Background(), eslintTimeout)
	defer cancel()
	cmd, err := ESLintCommand(ctx, eslint, root, files, modules, configDir)
	if err != nil {
		return nil, err
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) { // 1: lint errors found
		return nil, fmt.Errorf("eslint: %v\n%s", err, stderr.Bytes())
	}
	return ParseESLint(stdout.Bytes(), root)
}

// ParseESLint reads ESLint's JSON output and returns the no-useless-assignment messages by
// absolute file path; a fatal message (a parse error) is an error.
func ParseESLint(out []byte, root string) (map[string][]ESLintMessage, error) {
	var files []struct {
		FilePath string          `json:"filePath"`
		Messages []ESLintMessage `json:"messages"`
	}
	if err := json.Unmarshal(out, &files); err != nil {
		return nil, fmt.Errorf("eslint output: %v", err)
	}
	found := make(map[string][]ESLintMessage)
	for _, f := range files {
		path := f.FilePath
		if !filepath.IsAbs(path) {
			path = filepath.Join(root, path)
		}
		for _, m := range f.Messages {
			if m.Fatal {
				return nil, fmt.Errorf("eslint: %s:%d:%d: %s", path, m.Line, m.Column, m.Message)
			}
			if m.RuleID != nil && *m.RuleID == "no-useless-assignment" {
				found[path] = append(found[path], m)
			}
		}
	}
	return found, nil
}

// ESLintModules are the files of treesitter/corpus, by name, that are ES modules; the others
// are scripts.
var ESLintModules = map[string]bool{"three.module": true, "three.core": true}

// ESLintPositions converts ESLint's positions in a source to byte offsets: lines end at \n,
// \r\n, \r, U+2028 and U+2029, lines and columns count from 1, and columns count UTF-16 code
// units.
type ESLintPositions struct {
	src        []byte
	lineStarts []int32
}

func NewESLintPositions(src []byte) *ESLintPositions {
	p := &ESLintPositions{src: src, lineStarts: []int32{0}}
	for i := 0; i < len(src); i++ {
		switch {
		case src[i] == '\n':
			p.lineStarts = append(p.lineStarts, int32(i+1))
		case src[i] == '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				i++
			}
			p.lineStarts = append(p.lineStarts, int32(i+1))
		case src[i] == 0xE2 && i+2 < len(src) && src[i+1] == 0x80 && (src[i+2] == 0xA8 || src[i+2] == 0xA9):
			i += 2
			p.lineStarts = append(p.lineStarts, int32(i+1))
		}
	}
	return p
}

// Offset returns the byte offset of ESLint's line and column, or -1 for a line past the end.
func (p *ESLintPositions) Offset(line, col int) int32 {
	if line < 1 || line > len(p.lineStarts) {
		return -1
	}
	off := int(p.lineStarts[line-1])
	for units := col - 1; units > 0 && off < len(p.src); {
		r, size := utf8.DecodeRune(p.src[off:])
		off += size
		units--
		if r >= 0x10000 {
			units--
		}
	}
	return int32(off)
}
