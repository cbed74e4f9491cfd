package ssa

// defTable maps (block, binding) to the current definition, Braun et al.'s currentDef. It is
// an open-addressing hash table with linear probing: the builder's hottest structure, which a
// Go map makes several times slower.
type defTable struct {
	keys []uint64 // key+1; 0 marks an empty slot
	vals []*Value
	used int
}

func newDefTable(hint int) defTable {
	size := 16
	for size < 2*hint {
		size *= 2
	}
	return defTable{keys: make([]uint64, size), vals: make([]*Value, size)}
}

func defKey(b *Block, binding *Binding) uint64 {
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

func (t *defTable) get(k uint64) *Value {
	return t.vals[t.slot(k)]
}

func (t *defTable) put(k uint64, v *Value) {
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
