package analysis

import (
	"fmt"
	"slices"
)

// Materialize makes the bodies of r's copied functions (ssa.Copy), for tests that read every
// function.
func Materialize(r *Result) { materialize(r.Funcs) }

// OccurrenceAt is Result.occurrenceAt, for the tests that classify findings by variable.
func OccurrenceAt(r *Result, off int32) *Occurrence { return r.occurrenceAt(off) }

// IndexAroundAgrees reports where indexing the functions around [start, end] alone, as hints
// and the cursor's occurrence do until an answer needs the whole file, finds other occurrences
// or joins than the index of the whole file holds there, or where the index of the whole file
// finds them otherwise than by reading every entry. A moved Result (moved.go) has no index but
// the moved one, whatever asks.
func IndexAroundAgrees(r *Result, start, end int32) error {
	whole := r.indexed()
	if r.moving != nil {
		return nil // its index is moved from an older text, which its instructions are in
	}
	var occurrences []Occurrence
	for _, o := range whole.occurrences {
		if o.Span.Start <= end && o.Span.End >= start {
			occurrences = append(occurrences, o)
		}
	}
	var joins []Join
	for _, j := range whole.joins {
		if j.At >= start && j.At <= end {
			joins = append(joins, j)
		}
	}
	funcs := r.around(start, end)
	around := r.indexOf(funcs, instructions(funcs), start, end)
	over, overJoins := whole.over(start, end)
	switch {
	case !slices.Equal(around.occurrences, occurrences) || !slices.Equal(around.joins, joins):
		return fmt.Errorf("[%d, %d]: the functions around it have %d occurrences and %d joins there, the whole file %d and %d",
			start, end, len(around.occurrences), len(around.joins), len(occurrences), len(joins))
	case !slices.Equal(over, occurrences) || !slices.Equal(overJoins, joins):
		return fmt.Errorf("[%d, %d]: searching the whole index finds %d occurrences and %d joins, reading it %d and %d",
			start, end, len(over), len(overJoins), len(occurrences), len(joins))
	}
	return nil
}
