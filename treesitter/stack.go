package treesitter

/*
#include <stdint.h>
#include <stdlib.h>
#include "tree_sitter/api.h"

typedef struct {
	TSParser *parser;
	const TSTree *old;
	const char *src;
	uint32_t len;
	// cancel, if not NULL, stops the parse, with no tree, once *cancel is not 0.
	const int32_t *cancel;
	TSTree *tree;
} parse_job;

typedef struct {
	const char *src;
	uint32_t len;
} string_input;

static const char *string_read(void *payload, uint32_t byte, TSPoint point, uint32_t *bytes_read) {
	const string_input *in = payload;
	if (byte >= in->len) {
		*bytes_read = 0;
		return "";
	}
	*bytes_read = in->len - byte;
	return in->src + byte;
}

static bool cancelled(TSParseState *state) {
	return __atomic_load_n((const int32_t *)state->payload, __ATOMIC_RELAXED) != 0;
}

static void run_job(parse_job *j) {
	if (j->cancel == NULL) {
		j->tree = ts_parser_parse_string(j->parser, j->old, j->src, j->len);
		return;
	}
	string_input in = {j->src, j->len};
	TSInput input = {&in, string_read, TSInputEncodingUTF8, NULL};
	TSParseOptions opts = {(void *)j->cancel, cancelled};
	j->tree = ts_parser_parse_with_options(j->parser, j->old, input, opts);
	if (j->tree == NULL) {
		ts_parser_reset(j->parser); // else the parser's next parse resumes this one
	}
}

#ifdef _WIN32
#include <windows.h>

static DWORD WINAPI parse_thread(LPVOID arg) {
	run_job(arg);
	return 0;
}

// run_on_stack runs the job on a new thread with a stack of stack bytes; 0 if it cannot.
static int run_on_stack(parse_job *j, size_t stack) {
	HANDLE t = CreateThread(NULL, stack, parse_thread, j, STACK_SIZE_PARAM_IS_A_RESERVATION, NULL);
	if (t == NULL) {
		return 0;
	}
	WaitForSingleObject(t, INFINITE);
	CloseHandle(t);
	return 1;
}
#else
#include <pthread.h>
#include <signal.h>

static void *parse_thread(void *arg) {
	// Signals are for the Go runtime's threads.
	sigset_t all;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	run_job(arg);
	return NULL;
}

static int run_on_stack(parse_job *j, size_t stack) {
	pthread_attr_t attr;
	if (pthread_attr_init(&attr) != 0) {
		return 0;
	}
	pthread_t t;
	int ok = pthread_attr_setstacksize(&attr, stack) == 0 && pthread_create(&t, &attr, parse_thread, j) == 0;
	pthread_attr_destroy(&attr);
	if (ok) {
		pthread_join(t, NULL);
	}
	return ok;
}
#endif

static TSTree *parse_on_stack(TSParser *parser, const TSTree *old, const char *src, uint32_t len, const int32_t *cancel, size_t stack) {
	parse_job j = {parser, old, src, len, cancel, NULL};
	if (!run_on_stack(&j, stack)) {
		run_job(&j);
	}
	return j.tree;
}
*/
import "C"

import (
	"sync/atomic"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// tree-sitter releases the stack of a parse that kept several versions alive (GLR) by a
// recursion as deep as the input nests: 100,000 nested `l: {` overflow the 8 MiB stack of a
// thread and kill the process, and macOS gives threads 512 KiB. A parse therefore runs on a
// thread of its own whose stack is sized for the deepest input tree-sitter can be given: at
// least 3 bytes of source per level of nesting, about 100 bytes of stack per level of
// recursion. The stack is reserved address space; only the pages a parse touches are used.
const bytesOfStackPerSourceByte = 40

// minParseStack is the stack of a parse of a small source.
const minParseStack = 8 << 20

// The parser and the tree of go-tree-sitter are structs whose only field is the C pointer;
// cParser and cTree read it, newSitterTree makes a tree around one. These fail to compile if
// the structs stop being pointer-sized, and TestCTreePointer checks the field itself.
var _ = [1]struct{}{}[unsafe.Sizeof(sitter.Parser{})-unsafe.Sizeof(uintptr(0))]

func cParser(p *sitter.Parser) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(p)) }

func newSitterTree(c unsafe.Pointer) *sitter.Tree {
	t := new(sitter.Tree)
	*(*unsafe.Pointer)(unsafe.Pointer(t)) = c
	return t
}

// parseOnStack parses src with p, re-using old (nil: none), on a thread with a stack deep
// enough for src; nil if tree-sitter returned no tree, or if cancel, not nil, was set to a
// value other than 0 during the parse (which it stops).
func parseOnStack(p *sitter.Parser, old *sitter.Tree, src []byte, cancel *atomic.Int32) *sitter.Tree {
	var oldC unsafe.Pointer
	if old != nil {
		oldC = cTree(old)
	}
	var empty [1]byte
	text := unsafe.SliceData(src)
	if len(src) == 0 {
		text = &empty[0]
	}
	stack := max(minParseStack, bytesOfStackPerSourceByte*len(src))
	tree := C.parse_on_stack((*C.TSParser)(cParser(p)), (*C.TSTree)(oldC), (*C.char)(unsafe.Pointer(text)), C.uint32_t(len(src)),
		(*C.int32_t)(unsafe.Pointer(cancel)), C.size_t(stack))
	if tree == nil {
		return nil
	}
	return newSitterTree(unsafe.Pointer(tree))
}
