package treesitter

/*
#include <stdlib.h>

// mallopt and malloc_trim are glibc's. Elsewhere (macOS, Windows, musl) the
// allocator has no per-thread arenas to limit and nothing to trim on request.
#if defined(__GLIBC__)
#include <malloc.h>
static void one_arena(void) { mallopt(M_ARENA_MAX, 1); }
static void release_memory(void) { malloc_trim(0); }
#else
static void one_arena(void) {}
static void release_memory(void) {}
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
