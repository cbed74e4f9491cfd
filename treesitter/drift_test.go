package treesitter

import "testing"

// TestGrammarDrift pins the differences between the trees of the same JavaScript parsed by
// JavaScript (tree-sitter-javascript 0.25) and by TypeScript and TSX (tree-sitter-typescript
// 0.23.2, which embeds tree-sitter-javascript 0.23): the lowering reads the project's kinds
// and must handle both shapes (lower/typescript.go), or, for the misparses at the end, cannot.
// A grammar upgrade that changes one of these fails here first.
func TestGrammarDrift(t *testing.T) {
	for _, tt := range []struct{ name, src, js, ts string }{
		{"parameters are wrapped, a default inside the wrapper", "function f(a, b = 1, ...c) {}",
			"(program (function_declaration name: (identifier) parameters: (formal_parameters (identifier) (assignment_pattern left: (identifier) right: (number)) (rest_pattern (identifier))) body: (statement_block)))",
			"(program (function_declaration name: (identifier) parameters: (formal_parameters (required_parameter pattern: (identifier)) (required_parameter pattern: (identifier) value: (number)) (required_parameter pattern: (rest_pattern (identifier)))) body: (statement_block)))"},
		{"fields are public_field_definition with name, class names type_identifier, no member field", "class A { x = 1; static #p; }",
			"(program (class_declaration name: (identifier) body: (class_body member: (field_definition property: (property_identifier) value: (number)) member: (field_definition property: (private_property_identifier)))))",
			"(program (class_declaration name: (type_identifier) body: (class_body (public_field_definition name: (property_identifier) value: (number)) (public_field_definition name: (private_property_identifier)))))"},
		{"extends_clause in class_heritage", "class A extends B {}",
			"(program (class_declaration name: (identifier) (class_heritage (identifier)) body: (class_body)))",
			"(program (class_declaration name: (type_identifier) (class_heritage (extends_clause value: (identifier))) body: (class_body)))"},
		{"method decorators are siblings before the method", "class C { @dec m() {} }",
			"(program (class_declaration name: (identifier) body: (class_body member: (method_definition decorator: (decorator (identifier)) name: (property_identifier) parameters: (formal_parameters) body: (statement_block)))))",
			"(program (class_declaration name: (type_identifier) body: (class_body decorator: (decorator (identifier)) (method_definition name: (property_identifier) parameters: (formal_parameters) body: (statement_block)))))"},
		{"an optional call's ?. is a bare token", "f?.(x);",
			"(program (expression_statement (call_expression function: (identifier) optional_chain: (optional_chain) arguments: (arguments (identifier)))))",
			"(program (expression_statement (call_expression function: (identifier) arguments: (arguments (identifier)))))"},
		{"export alias default is an identifier", "export { x as default };",
			"(program (export_statement (export_clause (export_specifier name: (identifier)))))",
			"(program (export_statement (export_clause (export_specifier name: (identifier) alias: (identifier)))))"},
		{"import name default is an identifier", "import { default as d } from 'm';",
			"(program (import_statement (import_clause (named_imports (import_specifier alias: (identifier)))) source: (string (string_fragment))))",
			"(program (import_statement (import_clause (named_imports (import_specifier name: (identifier) alias: (identifier)))) source: (string (string_fragment))))"},
		{"a reserved word as export alias parses", "export { _null as null };",
			"(program (export_statement (export_clause (export_specifier name: (identifier)) (ERROR (null)))))",
			"(program (export_statement (export_clause (export_specifier name: (identifier) alias: (identifier)))))"},
		{"a comment after a declaration is inside it", "let a // c\n",
			"(program (lexical_declaration (variable_declarator name: (identifier))) (comment))",
			"(program (lexical_declaration (variable_declarator name: (identifier)) (comment)))"},
		// Misparses: valid JavaScript that TypeScript and TSX parse to another program.
		{"using is an assignment with a stray token, no ERROR", "using a = open();",
			"(program (using_declaration (variable_declarator name: (identifier) value: (call_expression function: (identifier) arguments: (arguments)))))",
			"(program (expression_statement (assignment_expression left: (identifier) right: (call_expression function: (identifier) arguments: (arguments)))))"},
		{"await using likewise", "await using a = open();",
			"(program (using_declaration (variable_declarator name: (identifier) value: (call_expression function: (identifier) arguments: (arguments)))))",
			"(program (expression_statement (await_expression (assignment_expression left: (identifier) right: (call_expression function: (identifier) arguments: (arguments))))))"},
		{"new new X()() nests wrongly", "new new X()();",
			"(program (expression_statement (new_expression constructor: (new_expression constructor: (identifier) arguments: (arguments)) arguments: (arguments))))",
			"(program (expression_statement (new_expression constructor: (call_expression function: (new_expression constructor: (identifier) arguments: (arguments)) arguments: (arguments)))))"},
		{"static get before a line break is a field", "class A { static get\n  baz() {} }",
			"(program (class_declaration name: (identifier) body: (class_body member: (method_definition name: (property_identifier) parameters: (formal_parameters) body: (statement_block)))))",
			"(program (class_declaration name: (type_identifier) body: (class_body (public_field_definition name: (property_identifier)) (method_definition name: (property_identifier) parameters: (formal_parameters) body: (statement_block)))))"},
		{"a field named accessor", "class A { accessor = 1 }",
			"(program (class_declaration name: (identifier) body: (class_body member: (field_definition property: (property_identifier) value: (number)))))",
			"(program (class_declaration name: (type_identifier) body: (class_body (public_field_definition (ERROR) name: (number)))))"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, g := range []*Grammar{JavaScript, TypeScript, TSX} {
				want := tt.ts
				if g == JavaScript {
					want = tt.js
				}
				tree, err := Parse(g, []byte(tt.src))
				if err != nil {
					t.Fatal(err)
				}
				if got := sexp(tree, 0); got != want {
					t.Errorf("%v: %s\n got %s\nwant %s", g, tt.src, got, want)
				}
				tree.Close()
			}
		})
	}
}
