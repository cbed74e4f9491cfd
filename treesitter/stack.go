package treesitter

/*
#include <stdint.h>
#include <stdlib.h>

// Declared by the tree-sitter C library that go-tree-sitter compiles in.
typedef struct TSParser TSParser;
typedef struct TSTree TSTree;
TSTree *ts_parser_parse_string(TSParser *self, const TSTree *old_tree, const char *string, uint32_t length);

typedef struct {
	TSParser *parser;
	const TSTree *old;
	const char *src;
	uint32_t len;
	TSTree *tree;
} parse_job;

#ifdef _WIN32
#include <windows.h>

static DWORD WINAPI parse_thread(LPVOID arg) {
	parse_job *j = arg;
	j->tree = ts_parser_parse_string(j->parser, j->old, j->src, j->len);
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
	parse_job *j = arg;
	j->tree = ts_parser_parse_string(j->parser, j->old, j->src, j->len);
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

static TSTree *parse_on_stack(TSParser *parser, const TSTree *old, const char *src, uint32_t len, size_t stack) {
	parse_job j = {parser, old, src, len, NULL};
	if (!run_on_stack(&j, stack)) {
		j.tree = ts_parser_parse_string(parser, old, src, len);
	}
	return j.tree;
}
*/
import "C"

import (
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
// enough for src; nil if tree-sitter returned no tree.
func parseOnStack(p *sitter.Parser, old *sitter.Tree, src []byte) *sitter.Tree {
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
	tree := C.parse_on_stack((*C.TSParser)(cParser(p)), (*C.TSTree)(oldC), (*C.char)(unsafe.Pointer(text)), C.uint32_t(len(src)), C.size_t(stack))
	if tree == nil {
		return nil
	}
	return newSitterTree(unsafe.Pointer(tree))
}
