package main

import (
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/ssalens/ssalens/analysis"
)

// This file prints check's findings as a SARIF 2.1.0 log (OASIS, Static Analysis Results
// Interchange Format), the format code-scanning services read: one run of the tool ssalens,
// its rules, and a result per finding.

const sarifSchema = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

// srcRoot names the working directory, which the relative paths of the results start from.
const srcRoot = "%SRCROOT%"

// sarifRules are the rules of ssalens, one per diagnostic code, with the level of their
// results by default.
var sarifRules = []sarifRule{
	{
		ID:                   "uselessAssignment",
		ShortDescription:     sarifText{"A stored value that no read can observe"},
		FullDescription:      sarifText{"An assignment or initializer whose value no read can observe: every path from it assigns the variable again or leaves its scope first, so the store can be removed. Variables never read at all, names starting with _, exports, imports, declarations without an initializer, function, class, enum and namespace declarations, and variables that a nested function reads are left out."},
		DefaultConfiguration: sarifConfiguration{"note"},
	},
	{
		ID:                   "temporalDeadZone",
		ShortDescription:     sarifText{"A read or assignment of a let, const or class before its declaration"},
		FullDescription:      sarifText{"A read that the uninitialized binding of a let, const or class can reach (its temporal dead zone), or an assignment to one before its declaration: when it happens, it throws a ReferenceError. In TypeScript files, a use before the declaration in the text is left to the compiler, which reports it as an error."},
		DefaultConfiguration: sarifConfiguration{"warning"},
	},
	{
		ID:                   "constantAssignment",
		ShortDescription:     sarifText{"An assignment to a constant"},
		FullDescription:      sarifText{"An assignment to a const, an import, a class's own name inside the class, or a named function expression's own name in strict code: it throws a TypeError, and the binding keeps its value. Not reported in TypeScript files, whose compiler reports it as an error."},
		DefaultConfiguration: sarifConfiguration{"warning"},
	},
	{
		ID:                   "notAnalyzed",
		ShortDescription:     sarifText{"A function that is not analyzed"},
		FullDescription:      sarifText{"A function that ssalens does not put in SSA form, and why: a syntax error, a with statement, a direct eval, nesting too deep, or a file too large. Its variables are not checked."},
		DefaultConfiguration: sarifConfiguration{"note"},
	},
	{
		ID:                   "syntaxError",
		ShortDescription:     sarifText{"A syntax error that breaks a function"},
		FullDescription:      sarifText{"A syntax error in a function while it is edited: the answers for the function come from the last version of the file that parsed."},
		DefaultConfiguration: sarifConfiguration{"note"},
	},
	{
		ID:                   "internalError",
		ShortDescription:     sarifText{"An internal error of ssalens"},
		FullDescription:      sarifText{"ssalens failed to analyze a function: the SSA form it built is wrong (the verifier says how) or could not be built. This is a bug of ssalens."},
		DefaultConfiguration: sarifConfiguration{"error"},
	},
}

// sarifLevels are the levels of results by severity: SARIF has no level for hints and
// information, which are notes.
var sarifLevels = map[analysis.Severity]string{
	analysis.SeverityError:       "error",
	analysis.SeverityWarning:     "warning",
	analysis.SeverityInformation: "note",
	analysis.SeverityHint:        "note",
}

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                        `json:"tool"`
	Invocations        []sarifInvocation                `json:"invocations"`
	OriginalURIBaseIDs map[string]sarifArtifactLocation `json:"originalUriBaseIds,omitempty"`
	ColumnKind         string                           `json:"columnKind"`
	Results            []sarifResult                    `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name            string      `json:"name"`
	Version         string      `json:"version"`
	SemanticVersion string      `json:"semanticVersion"`
	Rules           []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string             `json:"id"`
	ShortDescription     sarifText          `json:"shortDescription"`
	FullDescription      sarifText          `json:"fullDescription"`
	DefaultConfiguration sarifConfiguration `json:"defaultConfiguration"`
}

type sarifConfiguration struct {
	Level string `json:"level"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifInvocation struct {
	ExecutionSuccessful bool `json:"executionSuccessful"`
	// ToolExecutionNotifications are the paths that could not be read or analyzed.
	ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level     string          `json:"level"`
	Message   sarifText       `json:"message"`
	Locations []sarifLocation `json:"locations"`
}

type sarifResult struct {
	RuleID    string          `json:"ruleId"`
	RuleIndex int             `json:"ruleIndex"`
	Level     string          `json:"level"`
	Message   sarifText       `json:"message"`
	Locations []sarifLocation `json:"locations"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysicalLocation `json:"physicalLocation"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Region           *sarifRegion          `json:"region,omitempty"`
}

type sarifArtifactLocation struct {
	URI         string     `json:"uri,omitempty"`
	URIBaseID   string     `json:"uriBaseId,omitempty"`
	Description *sarifText `json:"description,omitempty"`
}

// sarifRegion is a span: lines and columns from 1, columns in UTF-16 code units (the run's
// columnKind), the end column just after the span.
type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
	EndLine     int `json:"endLine"`
	EndColumn   int `json:"endColumn"`
}

func writeSARIF(w io.Writer, sources []source, reports []fileReport) error {
	run := sarifRun{
		Tool:       sarifTool{sarifDriver{Name: "ssalens", Version: version, SemanticVersion: version, Rules: sarifRules}},
		ColumnKind: "utf16CodeUnits",
		Results:    []sarifResult{},
	}
	ruleIndex := make(map[string]int)
	for i, r := range sarifRules {
		ruleIndex[r.ID] = i
	}
	invocation := sarifInvocation{ExecutionSuccessful: true}
	relative := false
	for i, r := range reports {
		artifact := sarifArtifact(sources[i].path)
		relative = relative || artifact.URIBaseID != ""
		if r.err != nil {
			invocation.ExecutionSuccessful = false
			invocation.ToolExecutionNotifications = append(invocation.ToolExecutionNotifications, sarifNotification{
				Level: "error", Message: sarifText{r.err.Error()},
				Locations: []sarifLocation{{sarifPhysicalLocation{ArtifactLocation: artifact}}},
			})
		}
		for _, f := range r.findings {
			run.Results = append(run.Results, sarifResult{
				RuleID: f.code, RuleIndex: ruleIndex[f.code], Level: sarifLevels[f.severity], Message: sarifText{f.message},
				Locations: []sarifLocation{{sarifPhysicalLocation{ArtifactLocation: artifact, Region: &sarifRegion{
					StartLine: f.start.line, StartColumn: f.start.col16, EndLine: f.end.line, EndColumn: f.end.col16,
				}}}},
			})
		}
	}
	run.Invocations = []sarifInvocation{invocation}
	if relative {
		wd, err := os.Getwd()
		if err != nil {
			return err
		}
		run.OriginalURIBaseIDs = map[string]sarifArtifactLocation{srcRoot: {URI: strings.TrimSuffix(fileURI(wd), "/") + "/"}}
	}
	return encodeJSON(w, sarifLog{Schema: sarifSchema, Version: "2.1.0", Runs: []sarifRun{run}})
}

// sarifArtifact returns the location of a file: an absolute path as a file URI, a relative one
// as a relative URI from the working directory, srcRoot. Standard input has no URI: read as
// one, - would be a file of that name.
func sarifArtifact(path string) sarifArtifactLocation {
	if path == stdin {
		return sarifArtifactLocation{Description: &sarifText{"standard input"}}
	}
	if filepath.IsAbs(path) {
		return sarifArtifactLocation{URI: fileURI(path)}
	}
	// A relative URI whose first segment has a colon is written ./a:b, not to read as a scheme.
	u := &url.URL{Path: filepath.ToSlash(filepath.Clean(path))}
	return sarifArtifactLocation{URI: u.String(), URIBaseID: srcRoot}
}

// fileURI returns the file URI of an absolute path.
func fileURI(path string) string {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") { // C:/dir
		p = "/" + p
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}
