package analysis

import (
	"path/filepath"
	"strings"
)

// The languages by the LSP's languageId and by file name extension.

// LanguageOfID returns the language of an LSP languageId: javascript, javascriptreact,
// typescript or typescriptreact; false for any other.
func LanguageOfID(id string) (Language, bool) {
	switch id {
	case "javascript", "javascriptreact":
		return JavaScript, true
	case "typescript":
		return TypeScript, true
	case "typescriptreact":
		return TSX, true
	}
	return JavaScript, false
}

// LanguageOfFile returns the language of a file by its extension: .ts, .mts, .cts (and
// declaration files) are TypeScript, .tsx is TSX, .js, .mjs, .cjs and .jsx JavaScript; false
// for any other extension.
func LanguageOfFile(name string) (Language, bool) {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".js", ".mjs", ".cjs", ".jsx":
		return JavaScript, true
	case ".ts", ".mts", ".cts":
		return TypeScript, true
	case ".tsx":
		return TSX, true
	}
	return JavaScript, false
}

// LanguageNamed returns the language of a --lang flag's value: js, ts or tsx.
func LanguageNamed(name string) (Language, bool) {
	switch name {
	case "js":
		return JavaScript, true
	case "ts":
		return TypeScript, true
	case "tsx":
		return TSX, true
	}
	return JavaScript, false
}

func (l Language) String() string {
	switch l {
	case TypeScript:
		return "TypeScript"
	case TSX:
		return "TSX"
	}
	return "JavaScript"
}
