package ssa

import "sync"

// defTable maps (block, binding) to the current definition, Braun et al.'s currentDef: the
// builder's hottest structure. A function whose blocks times bindings is small gets a dense
// array, indexed block-major, so that the blocks filled in order touch memory in order; a
// larger one gets an open-addressing hash table with linear probing (a Go map is several
// times slower than either).
type defTable struct {
	dense    []*Value // dense[block*bindings+binding], or nil
	bindings int

	keys []uint64 // key+1; 0 marks an empty slot
	vals []*Value
	used int
}

// maxDense bounds the entries of a dense table (8 MiB of pointers).
const maxDense = 1 << 20

// A large dense table is cleared and kept for the next build (release) rather than dropped:
// the function typed in is built again at every keystroke, and when it is large (lodash.js's
// runInContext: 70,000 entries, 0.5 MB) its table was a seventh of what a keystroke allocated.
var denseTables sync.Pool // of *[]*Value, cleared

const minPooled = 1 << 14

func newDefTable(blocks, bindings, places int) defTable {
	if n := blocks * bindings; n <= maxDense {
		if n >= minPooled {
			if p, ok := denseTables.Get().(*[]*Value); ok && cap(*p) >= n {
				return defTable{dense: (*p)[:n], bindings: bindings}
			}
		}
		return defTable{dense: make([]*Value, n), bindings: bindings}
	}
	size := 16
	for size < 2*places {
		size *= 2
	}
	return defTable{keys: make([]uint64, size), vals: make([]*Value, size)}
}

// release gives a large dense table back for later builds; t is not to be used afterwards.
func (t *defTable) release() {
	if dense := t.dense; len(dense) >= minPooled {
		clear(dense) // it would keep this build's values
		denseTables.Put(&dense)
	}
	t.dense = nil
}

func (t *defTable) get(b *Block, binding *Binding) *Value {
	if t.dense != nil {
		return t.dense[int(b.ID)*t.bindings+int(binding.ID)]
	}
	return t.vals[t.slot(key(b, binding))]
}

func (t *defTable) put(b *Block, binding *Binding, v *Value) {
	if t.dense != nil {
		t.dense[int(b.ID)*t.bindings+int(binding.ID)] = v
		return
	}
	k := key(b, binding)
	i := t.slot(k)
	if t.keys[i] == 0 {
		if 2*(t.used+1) > len(t.keys) {
			t.grow()
			i = t.slot(k)
		}
		t.used++
		t.keys[i] = k + 1
	}
	t.vals[i] = v
}

func key(b *Block, binding *Binding) uint64 {
	return uint64(b.ID)<<32 | uint64(uint32(binding.ID))
}

func (t *defTable) slot(k uint64) int {
	mask := uint64(len(t.keys) - 1)
	i := (k * 0x9E3779B97F4A7C15) >> 32 & mask
	for t.keys[i] != 0 && t.keys[i] != k+1 {
		i = (i + 1) & mask
	}
	return int(i)
}

func (t *defTable) grow() {
	keys, vals := t.keys, t.vals
	t.keys = make([]uint64, 2*len(keys))
	t.vals = make([]*Value, 2*len(vals))
	for i, k := range keys {
		if k != 0 {
			j := t.slot(k - 1)
			t.keys[j] = k
			t.vals[j] = vals[i]
		}
	}
}
