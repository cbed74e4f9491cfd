package treesitter

/*
#include <stdlib.h>

// mallopt and malloc_trim are glibc's. Elsewhere (macOS, Windows, musl) the
// allocator has no per-thread arenas to limit and nothing to trim on request.
#if defined(__GLIBC__)
#include <malloc.h>
static void one_arena(void) { mallopt(M_ARENA_MAX, 1); }
void release_memory(void) { malloc_trim(0); }
#else
static void one_arena(void) {}
void release_memory(void) {}
#endif

// in_use returns the bytes the C allocator has handed out and not had back, or -1 where it
// cannot tell (mallinfo2 is glibc's since 2.33).
#if defined(__GLIBC__)
#if __GLIBC_PREREQ(2, 33)
#define HAS_MALLINFO2
#endif
#endif
#if defined(HAS_MALLINFO2)
static long long in_use(void) {
	struct mallinfo2 m = mallinfo2();
	return (long long)(m.uordblks + m.hblkhd);
}
#else
static long long in_use(void) { return -1; }
#endif
*/
import "C"

// OneArena makes the C allocator keep one arena for all threads. By default glibc gives
// threads arenas of their own, and a goroutine's cgo calls run on whichever thread is free: a
// long-running process that parses one version after another then scatters the trees of
// successive versions over several arenas, and the holes between the live ones are never
// returned (10 of 60 MB after 300 edits of lodash.js in one server). Parses that run at once
// contend for the one arena's lock; a language server parses one document at a time.
func OneArena() { C.one_arena() }

// ReleaseMemory returns the memory that closed trees freed to the operating system. The C
// allocator keeps freed memory for later C allocations, which the Go heap cannot use: after a
// large tree is closed, the process would go on holding it.
func ReleaseMemory() { C.release_memory() }

// cMemoryInUse returns the bytes the C allocator holds for the process's C code (tree-sitter's
// trees and parsers), or -1 where it cannot tell. Tests use it to find trees freed or not.
func cMemoryInUse() int64 { return int64(C.in_use()) }
