// Valid TypeScript whose trees differ from the JavaScript grammar's: an optional call's ?.
// is a bare token, not an optional_chain node; x! inside a chain continues it; a method's
// decorator is a sibling before it in the class body; export aliases may be reserved words
// or default; class names are type_identifier nodes; fields are public_field_definition.
function optional(f?: (n: number) => number, o?: { g?(): number; h: { i: number } }) {
  let n = f?.(1);
  n = o?.g?.() ?? n;
  n = o?.h!.i;
  return n;
}
function dec(v: any, _c?: any) { return v; }
class Decorated {
  @dec method() { return 1; }
  field = optional();
}
const _null = null, _default = Decorated;
export { _null as null, _default as default };
