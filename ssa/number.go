package ssa

import "slices"

// numberVersions gives each binding's values their versions: 0 for the initial value, then 1,
// 2, … in source order of their definition sites, where a φ is placed at its block's anchor.
// Values at the same position keep their order in fn.Values.
func numberVersions(fn *Function) {
	byBinding := make(map[*Binding][]*Value, len(fn.Bindings))
	for _, v := range fn.Values {
		byBinding[v.Binding] = append(byBinding[v.Binding], v)
	}
	for _, vs := range byBinding {
		slices.SortStableFunc(vs, func(a, b *Value) int { return int(position(a) - position(b)) })
		next := int32(1)
		for _, v := range vs {
			if v.Uninitialized() {
				continue
			}
			v.Version = next
			next++
		}
	}
}

func position(v *Value) int32 {
	switch v.Kind {
	case ValueInitial, ValueUninit:
		return -1
	case ValuePhi:
		return v.Block.Anchor.Start
	default:
		return v.Instr.Place.Span.Start
	}
}
