package analysis

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/ssalens/ssalens/ssa"
)

// Dump writes the printed HIR+SSA of every function named name ("": all).
func (r *Result) Dump(w io.Writer, name string) error {
	found := false
	for _, fn := range r.Funcs {
		if name != "" && fn.Name != name {
			continue
		}
		if found {
			fmt.Fprintln(w)
		}
		found = true
		r.printFunction(w, fn)
	}
	if !found {
		return fmt.Errorf("no function named %q", name)
	}
	return nil
}

// printFunction writes the HIR+SSA of fn, or why it is not analyzed.
func (r *Result) printFunction(w io.Writer, fn *ssa.Function) {
	if fn.Analyzed() {
		fn.Materialize()
		ssa.Fprint(w, fn)
		return
	}
	fmt.Fprintf(w, "function %s\n  not analyzed: %s\n", fn.Name, r.notAnalyzed(fn))
}

type jsonFile struct {
	Functions []jsonFunc `json:"functions"`
}

type jsonFunc struct {
	Name     string      `json:"name"`
	Line     int         `json:"line"`
	Analyzed bool        `json:"analyzed"`
	Reason   string      `json:"reason"`
	Blocks   int         `json:"blocks"`
	Phis     []jsonPhi   `json:"phis"`
	Values   []jsonValue `json:"values"`
}

// jsonPhi and jsonValue name their variable by its name and where it is declared: two
// variables of a function may have one name (a let that shadows another in a block).
type jsonPhi struct {
	Var      string  `json:"var"`
	Declared jsonPos `json:"declared"`
	Version  int32   `json:"version"`
	Line     int     `json:"line"`
	Operands []int32 `json:"operands"`
}

type jsonValue struct {
	Var      string    `json:"var"`
	Declared jsonPos   `json:"declared"`
	Version  int32     `json:"version"`
	Kind     string    `json:"kind"`
	Line     int       `json:"line"`
	Col      int       `json:"col"`
	Uses     []jsonPos `json:"uses"`
}

// jsonPos is a place in the source: line and column from 1, the column in bytes. A use is
// where a value is read.
type jsonPos struct {
	Line int `json:"line"`
	Col  int `json:"col"`
}

// place returns the place of off, an offset of Src.
func (r *Result) place(off int32) jsonPos {
	line, col := r.Lines.Position(off, UTF8)
	return jsonPos{Line: int(line) + 1, Col: int(col) + 1}
}

// DumpJSON writes the functions named name ("": all) as one JSON object.
func (r *Result) DumpJSON(w io.Writer, name string) error {
	out := jsonFile{Functions: []jsonFunc{}}
	for _, fn := range r.Funcs {
		if name != "" && fn.Name != name {
			continue
		}
		fn.Materialize()
		jf := jsonFunc{Name: fn.Name, Line: r.line(fn.Span.Start), Analyzed: fn.Analyzed(),
			Phis: []jsonPhi{}, Values: []jsonValue{}}
		if jf.Analyzed {
			jf.Blocks = len(fn.Blocks)
		} else {
			jf.Reason = r.notAnalyzed(fn)
		}
		for _, v := range fn.Values {
			declared := r.place(r.span(v.Binding.Decl).Start)
			if v.Kind == ssa.ValuePhi {
				ops := make([]int32, len(v.Phi.Operands))
				for i, op := range v.Phi.Operands {
					ops[i] = op.Version
				}
				jf.Phis = append(jf.Phis, jsonPhi{Var: v.Binding.Name, Declared: declared, Version: v.Version, Line: r.line(v.Block.Anchor.End), Operands: ops})
			}
			kind := v.Kind.String()
			if v.Uninitialized() {
				kind = "initial"
			}
			def := r.place(r.DefinedAt(v).Start)
			jv := jsonValue{Var: v.Binding.Name, Declared: declared, Version: v.Version, Kind: kind, Line: def.Line, Col: def.Col, Uses: []jsonPos{}}
			for _, p := range r.Uses(v) {
				jv.Uses = append(jv.Uses, r.place(r.span(p.Span).Start))
			}
			jf.Values = append(jf.Values, jv)
		}
		out.Functions = append(out.Functions, jf)
	}
	if name != "" && len(out.Functions) == 0 {
		return fmt.Errorf("no function named %q", name)
	}
	enc := json.NewEncoder(w)
	return enc.Encode(out)
}
