package treesitter

/*
#cgo CFLAGS: -I${SRCDIR}/internal/tree-sitter/include -I${SRCDIR}/internal/tree-sitter/src
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

// tree-sitter's own headers, of the version go-tree-sitter compiles (see
// internal/tree-sitter/README.md): the walk reads subtrees and the language's tables directly.
#include "tree.h"
#include "language.h"
#include "alloc.h"

// malloc.go's: gives the memory the C allocator holds free back to the system.
void release_memory(void);

// The bits of the Go type Flags.
enum {
	flag_named = 1 << 0,
	flag_missing = 1 << 1,
	flag_is_error = 1 << 2,
	flag_has_error = 1 << 3,
	flag_extra = 1 << 4,
};

// flat_node is the C view of the Go type Node; the Go side checks at compile
// time that the layouts agree.
typedef struct {
	uint16_t kind;
	uint16_t field;
	uint8_t flags;
	uint32_t start;
	uint32_t end;
	int32_t parent;
	int32_t first_child;
	int32_t next_sibling;
	int32_t child_count;
} flat_node;

// Offset and size of each field, for the layout check on the Go side.
#define FLAT_LAYOUT(f) (offsetof(flat_node, f) << 8 | sizeof(((flat_node *)0)->f))
enum {
	flat_layout_kind = FLAT_LAYOUT(kind),
	flat_layout_field = FLAT_LAYOUT(field),
	flat_layout_flags = FLAT_LAYOUT(flags),
	flat_layout_start = FLAT_LAYOUT(start),
	flat_layout_end = FLAT_LAYOUT(end),
	flat_layout_parent = FLAT_LAYOUT(parent),
	flat_layout_first_child = FLAT_LAYOUT(first_child),
	flat_layout_next_sibling = FLAT_LAYOUT(next_sibling),
	flat_layout_child_count = FLAT_LAYOUT(child_count),
};

static uint32_t flat_count(const void *tree) {
	return ts_node_descendant_count(ts_tree_root_node(tree));
}

// flat_tables translate a grammar's symbol and field ids into the project's kinds and fields.
typedef struct {
	const uint16_t *kinds;
	uint32_t nkinds;
	const uint16_t *fields;
	uint32_t nfields;
	uint16_t error_kind;
} flat_tables;

// flat_copied is a subtree the walk copied: new node node is old node old, and so are the size
// - 1 nodes after them, shifted. The Go type copied has its layout.
typedef struct {
	int32_t node, old, size;
} flat_copied;

// flat_reuse is what a walk may copy from: the flat tree of the version the tree was re-parsed
// from, the edit, and a cursor on the edited old tree. Tree-sitter builds the new tree from
// the old one's subtrees, and a subtree it reuses is the same immutable object, with the same
// id, in both trees: such a subtree's flat nodes are those of the old flat tree, shifted by the
// edit. The id is the proof; position, kind and size only find the candidate.
typedef struct {
	const flat_node *old;
	uint32_t nold;
	uint32_t edit_start, edit_old_end, edit_new_end;
	TSTreeCursor cursor; // on the edited old tree, whose preorder indices are the old flat tree's
	flat_copied *copies; // the subtrees copied, in preorder
	uint32_t ncopies, capcopies;
} flat_reuse;

static flat_reuse *flat_reuse_new(const flat_node *old, uint32_t nold, uint32_t edit_start,
		uint32_t edit_old_end, uint32_t edit_new_end, const void *edited) {
	flat_reuse *r = malloc(sizeof *r);
	if (r == NULL) return NULL;
	*r = (flat_reuse){old, nold, edit_start, edit_old_end, edit_new_end, ts_tree_cursor_new(ts_tree_root_node(edited)), NULL, 0, 0};
	return r;
}

static void flat_reuse_free(flat_reuse *r) {
	ts_tree_cursor_delete(&r->cursor);
	free(r->copies);
	free(r);
}

// flat_subtree_end returns the index just past the subtree of old node i.
static uint32_t flat_subtree_end(const flat_reuse *r, int32_t i) {
	for (; i >= 0; i = r->old[i].parent) {
		if (r->old[i].next_sibling >= 0) return r->old[i].next_sibling;
	}
	return r->nold;
}

// flat_old_node moves the cursor to the old node of preorder index goal and returns it. The
// walk calls it with mostly increasing indices: moving forward steps over whole subtrees, so
// all moves of one walk cost about as much as the nodes the walk visits.
static TSNode flat_old_node(flat_reuse *r, uint32_t goal) {
	if (goal < ts_tree_cursor_current_descendant_index(&r->cursor)) {
		ts_tree_cursor_goto_descendant(&r->cursor, goal);
	}
	for (;;) {
		uint32_t at = ts_tree_cursor_current_descendant_index(&r->cursor);
		TSNode n = ts_tree_cursor_current_node(&r->cursor);
		if (at == goal) return n;
		if (goal < at + ts_node_descendant_count(n)) {
			ts_tree_cursor_goto_first_child(&r->cursor);
			continue;
		}
		while (!ts_tree_cursor_goto_next_sibling(&r->cursor)) {
			ts_tree_cursor_goto_parent(&r->cursor);
		}
	}
}

// flat_find returns the old node that tree-sitter reused as the new node of the given id
// (its slot in its parent's children, as a TSNode's id is), span, project kind and number of
// nodes in its subtree, or -1 if the node is new.
static int32_t flat_find(flat_reuse *r, const void *id, uint32_t start, uint32_t end, uint16_t kind, uint32_t size) {
	if (!(end <= r->edit_start || start >= r->edit_new_end)) return -1;
	if (start >= r->edit_new_end) {
		start = start - r->edit_new_end + r->edit_old_end;
		end = end - r->edit_new_end + r->edit_old_end;
	}
	uint32_t lo = 0, hi = r->nold;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (r->old[mid].start < start) lo = mid + 1; else hi = mid;
	}
	for (uint32_t i = lo; i < r->nold && r->old[i].start == start; i++) {
		if (r->old[i].end == end && r->old[i].kind == kind && flat_subtree_end(r, i) - i == size) {
			return flat_old_node(r, i).id == id ? (int32_t)i : -1;
		}
	}
	return -1;
}

// flat_copy writes at out[at+1:] the nodes below old node old, whose subtree has size nodes
// (flat_find found it so), shifted to new node at, which starts delta bytes later, and returns
// how many it wrote.
static uint32_t flat_copy(flat_node *out, int32_t at, const flat_reuse *r, int32_t old, uint32_t size, int64_t delta) {
	int32_t shift = at - old;
	out[at].first_child = r->old[old].first_child + shift;
	out[at].child_count = r->old[old].child_count;
	for (uint32_t k = 1; k < size; k++) {
		flat_node x = r->old[old + k];
		x.start = (uint32_t)(x.start + delta);
		x.end = (uint32_t)(x.end + delta);
		x.parent += shift;
		if (x.first_child >= 0) x.first_child += shift;
		if (x.next_sibling >= 0) x.next_sibling += shift;
		out[at + k] = x;
	}
	return size - 1;
}

// flat_frame is a subtree whose children the walk is visiting. It is a visible node, or a
// hidden one (a repetition, a supertype, an inlined rule) whose visible descendants are the
// children of the nearest visible node above it, as a TSTreeCursor shows them.
typedef struct {
	Subtree tree;
	uint32_t next;             // the index of the next child to visit
	uint32_t structural;       // the next child's index among the children that are not extras
	uint32_t at;               // the byte offset at which the next child starts, once its padding is added
	const TSSymbol *aliases;   // the production's alias sequence, or NULL
	const TSFieldMapEntry *fields, *fields_end; // the production's field map
	int32_t parent;            // the flat index of the nearest visible node, this one if it is visible
	uint32_t owner;            // the frame of that node
	int32_t last;              // in a visible node's frame: its last child written so far, or -1
	TSFieldId field;           // in a hidden node's frame: the field its children inherit, as
	                           // ts_tree_cursor_current_field_id finds it through hidden nodes
	uint8_t release;           // what leaving the subtree does with it (flat_release)
} flat_frame;

// flat_release says what a walk that consumes the tree does with a subtree once it has
// visited it. Subtrees are reference-counted; a freshly parsed tree holds each once, but
// error recovery may share one between parents.
enum {
	flat_keep,  // nothing: the walk does not consume the tree, or another reference holds the subtree
	flat_unref, // drop the walk's reference to a subtree held elsewhere too; its children stay
	flat_free,  // free it: the walk held its only reference and has released each child
};

typedef struct {
	flat_frame *frames;
	uint32_t depth, cap;
	bool release;       // the walk consumes the tree: it frees each subtree it leaves
	SubtreePool pool;   // for ts_subtree_release, when release
	uint32_t released;  // subtrees released since the memory was last given back
} flat_stack;

// A walk that consumes a tree gives the memory it freed back to the system each time it has
// released flat_trim_every subtrees, so that the process never holds the whole C tree and the
// whole flat tree at once.
enum { flat_trim_every = 1 << 15 };

static flat_stack flat_stack_new(bool release) {
	flat_stack s = {.release = release};
	if (release) s.pool = ts_subtree_pool_new(0);
	return s;
}

// flat_mode returns how a walk leaves subtree t once visited: kept if the walk holds no
// reference to it (held is false), freed with its children if the walk's reference is the only
// one, else dropped.
static uint8_t flat_mode(bool held, Subtree t) {
	if (!held) return flat_keep;
	return !t.data.is_inline && t.ptr->ref_count == 1 ? flat_free : flat_unref;
}

// flat_released counts one more subtree released, and gives the memory back every
// flat_trim_every.
static void flat_released(flat_stack *s) {
	if (++s->released >= flat_trim_every) {
		s->released = 0;
		release_memory();
	}
}

// flat_drop releases subtree t, which the walk holds a reference to (and has not visited the
// children of), as ts_tree_delete would: with every subtree only it holds.
static void flat_drop(flat_stack *s, Subtree t) {
	if (t.data.is_inline) return;
	ts_subtree_release(&s->pool, t);
	flat_released(s);
}

// flat_leave lets go of the frame's subtree, whose children the walk has visited: it frees
// what flat_free frames hold themselves (their children were released one by one) and drops
// the reference of flat_unref ones.
static void flat_leave(flat_stack *s, const flat_frame *f) {
	switch (f->release) {
	case flat_free:
		ts_free(ts_subtree_children(f->tree));
		flat_released(s);
		break;
	case flat_unref:
		flat_drop(s, f->tree);
		break;
	}
}

// flat_stack_free frees the stack. A walk that stopped early (out of memory, or a tree not of
// the size tree-sitter counted) leaves frames on it: a consuming walk releases what they hold.
static void flat_stack_free(flat_stack *s) {
	while (s->depth > 0) {
		flat_frame *f = &s->frames[--s->depth];
		if (f->release == flat_free) {
			for (uint32_t i = f->next; i < ts_subtree_child_count(f->tree); i++) {
				flat_drop(s, ts_subtree_children(f->tree)[i]);
			}
		}
		flat_leave(s, f);
	}
	free(s->frames);
	if (s->release) ts_subtree_pool_delete(&s->pool);
}

// flat_grow makes room for one more element in the growing C array *list of *cap elements of
// the given size, of which n are used.
static bool flat_grow(void **list, uint32_t *cap, uint32_t n, size_t size) {
	if (n < *cap) return true;
	uint32_t more = *cap ? 2 * *cap : 64;
	void *grown = realloc(*list, more * size);
	if (grown == NULL) return false;
	*list = grown;
	*cap = more;
	return true;
}

// flat_push pushes a frame to visit the children of tree, to which the walk holds a reference
// it must release if held is true. If there is no room for the frame, it releases that reference.
static bool flat_push(flat_stack *s, const TSLanguage *lang, Subtree tree, bool held, uint32_t at, int32_t parent,
		uint32_t owner, TSFieldId field) {
	if (!flat_grow((void **)&s->frames, &s->cap, s->depth, sizeof *s->frames)) {
		if (held) flat_drop(s, tree);
		return false;
	}
	flat_frame *f = &s->frames[s->depth];
	*f = (flat_frame){.tree = tree, .at = at, .parent = parent, .owner = owner, .last = -1, .field = field,
		.release = flat_mode(held, tree)};
	f->aliases = ts_language_alias_sequence(lang, ts_subtree_production_id(tree));
	ts_language_field_map(lang, ts_subtree_production_id(tree), &f->fields, &f->fields_end);
	s->depth++;
	// A subtree's children are scattered over the C heap, and reading them is most of the
	// walk's time: ask for them all now, so that each load overlaps the others.
	const Subtree *children = ts_subtree_children(tree);
	for (uint32_t i = 0, n = tree.ptr->child_count; i < n && i < 32; i++) {
		if (!children[i].data.is_inline) __builtin_prefetch(children[i].ptr);
	}
	return true;
}

// flat_set writes the node of subtree t, shown under alias (0 for none), in field, at [start, end).
static void flat_set(flat_node *out, const TSLanguage *lang, Subtree t, TSSymbol alias, TSFieldId field,
		uint32_t start, int32_t parent, const flat_tables *tables) {
	TSSymbol sym = ts_language_public_symbol(lang, alias ? alias : ts_subtree_symbol(t));
	bool named = alias ? ts_language_symbol_metadata(lang, alias).named : ts_subtree_named(t);
	bool is_error = sym == ts_builtin_sym_error;
	uint8_t flags = 0;
	if (named) flags |= flag_named;
	if (ts_subtree_missing(t)) flags |= flag_missing;
	if (is_error) flags |= flag_is_error;
	if (ts_subtree_error_cost(t) > 0) flags |= flag_has_error;
	if (ts_subtree_extra(t)) flags |= flag_extra;
	out->kind = is_error ? tables->error_kind : sym < tables->nkinds ? tables->kinds[sym] : 0;
	out->field = field < tables->nfields ? tables->fields[field] : 0;
	out->flags = flags;
	out->start = start;
	out->end = start + ts_subtree_size(t).bytes;
	out->parent = parent;
	out->first_child = -1;
	out->next_sibling = -1;
	out->child_count = 0;
}

// flat_jobs are the subtrees a walk left for flat_work: each is a visible node, already
// written, whose descendants go at out[node+1:node+size), where size counts the node and its
// visible descendants, as tree-sitter keeps it. A walk leaves a subtree of lo to hi nodes
// there, and goes down into a larger one: the pieces are then small enough to share out
// evenly, and few enough to cost nothing to share.
typedef struct {
	Subtree tree;
	uint32_t at;
	int32_t node;
} flat_job;

typedef struct {
	flat_job *list;
	uint32_t n, cap;
	uint32_t lo, hi;
	uint32_t next; // the next job to take, atomically
} flat_jobs;

static flat_jobs *flat_jobs_new(uint32_t lo, uint32_t hi) {
	flat_jobs *j = calloc(1, sizeof *j);
	if (j != NULL) {
		j->lo = lo;
		j->hi = hi;
	}
	return j;
}

static void flat_jobs_free(flat_jobs *j) {
	free(j->list);
	free(j);
}

static uint32_t flat_jobs_count(const flat_jobs *j) { return j->n; }

static bool flat_defer(flat_jobs *j, Subtree tree, uint32_t at, int32_t node) {
	if (!flat_grow((void **)&j->list, &j->cap, j->n, sizeof *j->list)) return false;
	j->list[j->n++] = (flat_job){tree, at, node};
	return true;
}

// flat_walk visits the subtrees on s and below, writing their visible nodes from out[n] on, and
// returns the index past the last node it wrote: cap+1 if there are more than cap, 0 if it runs
// out of memory. With r, the subtrees it can copy are copied whole; with jobs, the subtrees of
// the jobs' sizes are left to flat_work. A walk that consumes the tree (s->release) releases
// each subtree once it has visited it, and has neither r nor jobs.
static uint32_t flat_walk(flat_stack *s, const TSLanguage *lang, flat_node *out, uint32_t n, uint32_t cap,
		const flat_tables *tables, flat_reuse *r, flat_jobs *jobs) {
	while (s->depth > 0 && n > 0) {
		flat_frame *f = &s->frames[s->depth - 1];
		if (f->next == ts_subtree_child_count(f->tree)) {
			flat_leave(s, f);
			s->depth--;
			continue;
		}
		bool held = f->release == flat_free;
		const Subtree *slot = &ts_subtree_children(f->tree)[f->next];
		Subtree child = *slot;
		if (f->next++ > 0) f->at += ts_subtree_padding(child).bytes;
		uint32_t at = f->at;
		f->at += ts_subtree_size(child).bytes;
		bool extra = ts_subtree_extra(child);
		TSSymbol alias = 0;
		TSFieldId field = 0;
		if (!extra) {
			if (f->aliases) alias = f->aliases[f->structural];
			for (const TSFieldMapEntry *m = f->fields; m < f->fields_end && !field; m++) {
				if (!m->inherited && m->child_index == f->structural) field = m->field_id;
			}
			if (!field) field = f->field;
			f->structural++;
		}
		int32_t parent = f->parent;
		uint32_t owner = f->owner;
		if (!ts_subtree_visible(child) && !alias) {
			if (ts_subtree_visible_child_count(child) == 0) {
				if (held) flat_drop(s, child);
			} else if (!flat_push(s, lang, child, held, at, parent, owner, field)) {
				n = 0;
			}
			continue;
		}
		if (n >= cap) {
			if (held) flat_drop(s, child);
			n = cap + 1;
			break;
		}
		int32_t node = n++;
		flat_set(&out[node], lang, child, alias, field, at, parent, tables);
		flat_frame *o = &s->frames[owner];
		if (o->last < 0) out[parent].first_child = node; else out[o->last].next_sibling = node;
		o->last = node;
		out[parent].child_count++;
		if (ts_subtree_child_count(child) == 0) {
			if (held) flat_drop(s, child);
			continue;
		}
		uint32_t size = ts_subtree_visible_descendant_count(child) + 1;
		if (r != NULL) {
			int32_t old = size > 1 && node + size <= cap ? flat_find(r, slot, at, out[node].end, out[node].kind, size) : -1;
			if (old >= 0) {
				n += flat_copy(out, node, r, old, size, (int64_t)at - r->old[old].start);
				if (!flat_grow((void **)&r->copies, &r->capcopies, r->ncopies, sizeof *r->copies)) n = 0;
				else r->copies[r->ncopies++] = (flat_copied){node, old, (int32_t)size};
				continue;
			}
		}
		if (jobs != NULL && size >= jobs->lo && size <= jobs->hi && node + size <= cap) {
			if (!flat_defer(jobs, child, at, node)) n = 0;
			n = n ? node + size : 0;
			continue;
		}
		if (!flat_push(s, lang, child, held, at, node, s->depth, 0)) n = 0;
	}
	return n;
}

// flat_fill writes the tree into out in preorder and returns the number of nodes, or cap+1 if
// there are more than cap (0 if it runs out of memory). It walks tree-sitter's subtrees itself,
// with a stack of its own: the public cursor finds each next node again from the top of its
// stack, through the balanced trees of hidden nodes that repetitions make, and computes row and
// column positions the flat tree does not keep, which made the walk three times slower. With
// r, the subtrees it can copy are copied whole; with jobs, it leaves subtrees to flat_work.
// With release (and neither r nor jobs), the walk consumes the tree: it takes the tree's
// reference to its root and releases each subtree once it has visited it, and the tree is left
// empty, for ts_tree_delete to free what remains of it.
static uint32_t flat_fill(void *tree_, flat_node *out, uint32_t cap,
		const uint16_t *kinds, uint32_t nkinds, const uint16_t *fields, uint32_t nfields, uint16_t error_kind,
		flat_reuse *r, flat_jobs *jobs, bool release) {
	const flat_tables tables = {kinds, nkinds, fields, nfields, error_kind};
	TSTree *tree = tree_;
	const TSLanguage *lang = tree->language;
	if (cap == 0) return 1;
	uint32_t start = ts_subtree_padding(tree->root).bytes;
	flat_set(&out[0], lang, tree->root, 0, 0, start, -1, &tables);
	uint32_t n = 1;
	flat_stack s = flat_stack_new(release);
	Subtree root = tree->root;
	if (release) tree->root = (Subtree){.data = {.is_inline = true}};
	if (ts_subtree_child_count(root) == 0) {
		if (release) flat_drop(&s, root);
	} else if (!flat_push(&s, lang, root, release, start, 0, 0, 0)) {
		n = 0;
	}
	n = flat_walk(&s, lang, out, n, cap, &tables, r, jobs);
	flat_stack_free(&s);
	return n;
}

// flat_work takes jobs until none is left and writes their subtrees, as flat_fill would have.
// Several threads may run it at once on the same jobs: each job writes its own part of out,
// its root's descendants and its root's first_child and child_count.
// It returns false if a subtree did not have the size tree-sitter counted, or out of memory.
static bool flat_work(const void *tree_, flat_node *out,
		const uint16_t *kinds, uint32_t nkinds, const uint16_t *fields, uint32_t nfields, uint16_t error_kind,
		flat_jobs *jobs) {
	const flat_tables tables = {kinds, nkinds, fields, nfields, error_kind};
	const TSLanguage *lang = ((const TSTree *)tree_)->language;
	flat_stack s = flat_stack_new(false);
	bool ok = true;
	for (;;) {
		uint32_t i = __atomic_fetch_add(&jobs->next, 1, __ATOMIC_RELAXED);
		if (i >= jobs->n) break;
		flat_job j = jobs->list[i];
		uint32_t end = j.node + ts_subtree_visible_descendant_count(j.tree) + 1;
		if (!flat_push(&s, lang, j.tree, false, j.at, j.node, 0, 0) || flat_walk(&s, lang, out, j.node + 1, end, &tables, NULL, NULL) != end) {
			ok = false;
			break;
		}
	}
	flat_stack_free(&s);
	return ok;
}

*/
import "C"

import (
	"errors"
	"fmt"
	"iter"
	"math"
	"runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// Flags is a bit set of node properties.
type Flags uint8

const (
	// Named marks nodes of named grammar rules, as opposed to anonymous
	// tokens like "(" or "+".
	Named Flags = 1 << iota
	// Missing marks zero-width tokens that the parser inserted to recover
	// from a syntax error.
	Missing
	// IsError marks ERROR nodes, which wrap input the parser skipped.
	IsError
	// HasError marks nodes whose subtree contains an ERROR or missing node.
	HasError
	// Extra marks nodes that may appear anywhere, i.e. comments.
	Extra
)

// Node is one syntax node. Nodes refer to each other by index into
// Tree.Nodes, with -1 for none.
type Node struct {
	Kind Kind
	// Field is the field name this node has in its parent.
	Field Field
	Flags Flags
	// Start and End are byte offsets into Tree.Src.
	Start, End  uint32
	Parent      int32
	FirstChild  int32
	NextSibling int32
	// ChildCount counts named and anonymous children.
	ChildCount int32
}

// The C walk writes Nodes directly; these fail to compile (constant index out
// of range) if Node and flat_node ever differ in layout.
var (
	_ = [1]struct{}{}[unsafe.Sizeof(Node{})-C.sizeof_flat_node]
	_ = [1]struct{}{}[unsafe.Offsetof(Node{}.Kind)<<8|unsafe.Sizeof(Node{}.Kind)-C.flat_layout_kind]
	_ = [1]struct{}{}[unsafe.Offsetof(Node{}.Field)<<8|unsafe.Sizeof(Node{}.Field)-C.flat_layout_field]
	_ = [1]struct{}{}[unsafe.Offsetof(Node{}.Flags)<<8|unsafe.Sizeof(Node{}.Flags)-C.flat_layout_flags]
	_ = [1]struct{}{}[unsafe.Offsetof(Node{}.Start)<<8|unsafe.Sizeof(Node{}.Start)-C.flat_layout_start]
	_ = [1]struct{}{}[unsafe.Offsetof(Node{}.End)<<8|unsafe.Sizeof(Node{}.End)-C.flat_layout_end]
	_ = [1]struct{}{}[unsafe.Offsetof(Node{}.Parent)<<8|unsafe.Sizeof(Node{}.Parent)-C.flat_layout_parent]
	_ = [1]struct{}{}[unsafe.Offsetof(Node{}.FirstChild)<<8|unsafe.Sizeof(Node{}.FirstChild)-C.flat_layout_first_child]
	_ = [1]struct{}{}[unsafe.Offsetof(Node{}.NextSibling)<<8|unsafe.Sizeof(Node{}.NextSibling)-C.flat_layout_next_sibling]
	_ = [1]struct{}{}[unsafe.Offsetof(Node{}.ChildCount)<<8|unsafe.Sizeof(Node{}.ChildCount)-C.flat_layout_child_count]
	_ = [1]struct{}{}[unsafe.Sizeof(copied{})-C.sizeof_flat_copied]
)

// sitter.Tree is a struct whose only field is the *C.TSTree; cTree reads that
// field. This fails to compile if the struct stops being pointer-sized, and
// TestCTreePointer checks the field itself.
var _ = [1]struct{}{}[unsafe.Sizeof(sitter.Tree{})-unsafe.Sizeof(uintptr(0))]

func cTree(t *sitter.Tree) unsafe.Pointer {
	return *(*unsafe.Pointer)(unsafe.Pointer(t))
}

// flatten copies the C tree, parsed with g, into a preorder node slice in C (see flat_fill),
// translating g's symbols and fields into the project's kinds and fields on the way.
func flatten(ts *sitter.Tree, g *Grammar) ([]Node, error) { return flattenFrom(ts, g, nil, false) }

// reuse is what flattenFrom may copy from the previous version's flat tree: its nodes, the edit
// that made the new source, and the edited C tree the new one was parsed from.
type reuse struct {
	nodes  []Node
	edit   Edit
	edited *sitter.Tree
	from   uint64   // the id of the tree re-parsed
	copied []copied // what the walk copied, which flattenFrom fills in
}

// copied is a run of nodes that a re-parse copied from the flat tree of the version it
// re-parsed: node node of the new tree is node old of that one, and so are the size - 1 nodes
// after them, shifted by the edit. It is a subtree that tree-sitter reused as it was, or, for
// a splice, the nodes before or after those it parsed again (copiedAround).
type copied struct {
	node, old, size int32
}

// flattenFrom is flatten, which copies from r, if it is not nil, the subtrees that tree-sitter
// rebuilt as they were: the walk from Go then costs as much as the edit, not the file, and the
// rest is a copy. Without r, a large tree is walked on every processor (see flatParallel).
// With release (and no r), the walk consumes the C tree, freeing its subtrees as it leaves
// them: what remains of ts is to be closed, and cannot be re-parsed. Such a walk goes alone,
// because the parallel one writes the first node of each of its pieces, all over the flat tree,
// before it frees anything (on typescript.js, 10 MB more at the peak).
func flattenFrom(ts *sitter.Tree, g *Grammar, r *reuse, release bool) ([]Node, error) {
	tree := cTree(ts)
	count := C.flat_count(tree)
	if count > math.MaxInt32 {
		return nil, fmt.Errorf("treesitter: %d nodes exceed the int32 node index", count)
	}
	var nodes []Node
	if release {
		// Go may clear a large allocation before handing it out, which would touch all of it
		// while the C tree is still whole. The C allocator maps a block this large afresh, and
		// its pages come as the walk writes them, while it frees the subtrees it leaves.
		buf := C.malloc(C.size_t(count) * C.sizeof_flat_node)
		if buf == nil {
			return nil, errOutOfMemory
		}
		defer C.free(buf)
		nodes = unsafe.Slice((*Node)(buf), count)
	} else {
		nodes = newNodes(int(count))
	}
	var from *C.flat_reuse
	if r != nil {
		// The C walk reads the old nodes, a Go array that holds no Go pointers, during the
		// call only; the struct passing them lives in C memory.
		from = C.flat_reuse_new((*C.flat_node)(unsafe.Pointer(unsafe.SliceData(r.nodes))), C.uint32_t(len(r.nodes)),
			C.uint32_t(r.edit.StartByte), C.uint32_t(r.edit.OldEndByte), C.uint32_t(r.edit.NewEndByte), cTree(r.edited))
		if from == nil {
			return nil, errOutOfMemory
		}
		defer func() {
			r.copied = slices.Clone(unsafe.Slice((*copied)(unsafe.Pointer(from.copies)), from.ncopies))
			C.flat_reuse_free(from)
		}()
	}
	var jobs *C.flat_jobs
	workers := runtime.GOMAXPROCS(0)
	if r == nil && !release && workers > 1 && count >= flatParallel {
		if jobs = C.flat_jobs_new(flatJobMin, C.uint32_t(max(count/flatJobShare, flatJobMin))); jobs == nil {
			return nil, errOutOfMemory
		}
		defer C.flat_jobs_free(jobs)
	}
	out := (*C.flat_node)(unsafe.Pointer(unsafe.SliceData(nodes)))
	kinds, nkinds := (*C.uint16_t)(unsafe.SliceData(g.kinds)), C.uint32_t(len(g.kinds))
	fields, nfields := (*C.uint16_t)(unsafe.SliceData(g.fields)), C.uint32_t(len(g.fields))
	got := C.flat_fill(tree, out, count, kinds, nkinds, fields, nfields, C.uint16_t(KindError), from, jobs, C.bool(release))
	if got == 0 {
		return nil, errOutOfMemory
	}
	if got != count {
		return nil, fmt.Errorf("treesitter: tree walk found %d nodes, tree-sitter counted %d", got, count)
	}
	if jobs != nil && C.flat_jobs_count(jobs) > 0 {
		var failed atomic.Bool
		var wg sync.WaitGroup
		for range workers {
			wg.Go(func() {
				if !C.flat_work(tree, out, kinds, nkinds, fields, nfields, C.uint16_t(KindError), jobs) {
					failed.Store(true)
				}
			})
		}
		wg.Wait()
		if failed.Load() {
			return nil, errors.New("treesitter: a subtree's walk did not find the nodes tree-sitter counted, or ran out of memory")
		}
	}
	if release {
		return slices.Clone(nodes), nil
	}
	return nodes, nil
}

var errOutOfMemory = errors.New("treesitter: out of memory")

// A tree of flatParallel nodes or more (a source of 80 to 150 kB) is walked on every processor:
// one walk goes down the tree as far as subtrees of at most 1/flatJobShare of its nodes, and
// leaves those of flatJobMin nodes or more as jobs, which every processor then takes from.
const (
	flatParallel = 1 << 14
	flatJobMin   = 64
	flatJobShare = 64
)

// Text returns the source text of node i.
func (t *Tree) Text(i int32) []byte {
	n := &t.Nodes[i]
	return t.Src[n.Start:n.End]
}

// ChildByField returns the first child of node i that has field f, or -1.
func (t *Tree) ChildByField(i int32, f Field) int32 {
	for c := t.Nodes[i].FirstChild; c >= 0; c = t.Nodes[c].NextSibling {
		if t.Nodes[c].Field == f {
			return c
		}
	}
	return -1
}

// HasToken reports whether node i has the anonymous token k among its own children.
func (t *Tree) HasToken(i int32, k Kind) bool {
	for c := t.Nodes[i].FirstChild; c >= 0; c = t.Nodes[c].NextSibling {
		if t.Nodes[c].Kind == k && t.Nodes[c].Flags&Named == 0 {
			return true
		}
	}
	return false
}

// FirstNamedChild returns the first named child of node i, or -1. As in
// tree-sitter, comments are named children (with the Extra flag).
func (t *Tree) FirstNamedChild(i int32) int32 {
	return t.namedFrom(t.Nodes[i].FirstChild)
}

// NextNamedSibling returns the next named sibling of node i, or -1.
func (t *Tree) NextNamedSibling(i int32) int32 {
	return t.namedFrom(t.Nodes[i].NextSibling)
}

// NamedChild returns the n-th (from 0) named child of node i, or -1.
func (t *Tree) NamedChild(i int32, n int) int32 {
	c := t.FirstNamedChild(i)
	for ; c >= 0 && n > 0; n-- {
		c = t.NextNamedSibling(c)
	}
	return c
}

func (t *Tree) namedFrom(c int32) int32 {
	for c >= 0 && t.Nodes[c].Flags&Named == 0 {
		c = t.Nodes[c].NextSibling
	}
	return c
}

// Children yields the children of node i in source order.
func (t *Tree) Children(i int32) iter.Seq[int32] {
	return func(yield func(int32) bool) {
		for c := t.Nodes[i].FirstChild; c >= 0; c = t.Nodes[c].NextSibling {
			if !yield(c) {
				return
			}
		}
	}
}

// NamedChildren yields the named children of node i in source order,
// comments included.
func (t *Tree) NamedChildren(i int32) iter.Seq[int32] {
	return func(yield func(int32) bool) {
		for c := t.FirstNamedChild(i); c >= 0; c = t.NextNamedSibling(c) {
			if !yield(c) {
				return
			}
		}
	}
}

// SubtreeEnd returns the index just past the subtree of node i, so that the
// subtree is Nodes[i:SubtreeEnd(i)].
func (t *Tree) SubtreeEnd(i int32) int32 {
	for ; i >= 0; i = t.Nodes[i].Parent {
		if next := t.Nodes[i].NextSibling; next >= 0 {
			return next
		}
	}
	return int32(len(t.Nodes))
}

// ContentEnd returns where node i's code ends: at the end of its last token that is not a
// comment. A TypeScript or TSX parse may end a statement with the comments after it, which the
// parser read ahead over to see whether an else follows an if.
func (t *Tree) ContentEnd(i int32) uint32 {
	for last := t.SubtreeEnd(i) - 1; last > i; last-- {
		if n := &t.Nodes[last]; n.FirstChild < 0 && n.Kind != KindComment {
			return n.End
		}
	}
	return t.Nodes[i].End
}

// NodeAt returns the node of kind k that spans [start, end), or -1.
func (t *Tree) NodeAt(start, end uint32, k Kind) int32 {
	i := sort.Search(len(t.Nodes), func(i int) bool { return t.Nodes[i].Start >= start })
	for ; i < len(t.Nodes) && t.Nodes[i].Start == start; i++ {
		if t.Nodes[i].End == end && t.Nodes[i].Kind == k {
			return int32(i)
		}
	}
	return -1
}
