// Valid TypeScript that tree-sitter-typescript 0.23.2 misparses: using declarations (an
// assignment to a global with a stray "using" token, no ERROR node), `for (using ...)`,
// static accessor fields, static index signatures, variance annotations (in/out), a
// parenthesized target in a destructuring pattern (also an error in tree-sitter-javascript
// 0.25), a target with a type assertion in one, unparenthesized (TypeScript accepts it),
// export type *, and a block comment with a line break in it, which ends a line for automatic
// semicolons (JavaScript's grammar knows; here return takes the next line as its value, and
// the last read of a shows a₁ where it is a₂). Each sits in a function of its own so that the
// others are analyzed; an error inside a type (the variance annotation) breaks no code, so
// variance is analyzed; for (using ...) comes last, as tree-sitter's recovery from it swallows
// the rest of the file.
function usingDecl(open: () => Disposable) {
  using r = open();
  let n = 1;
  if (r) n = 2;
  return n;
}
async function awaitUsing(open: () => AsyncDisposable) {
  await using r = open();
  return r;
}
function staticAccessor() {
  return class { static accessor count = 0; static [key: string]: number; };
}
function variance() {
  interface Producer<out T> { get(): T }
  let p: Producer<number> | undefined;
  return p;
}
function parenthesizedTarget(x: unknown, y: unknown) {
  [x, (y as string)] = ["1", "2"];
  ({ k: (x as number) } = { k: 1 });
  return [x, y];
}
function assertedTargetInArray(r: unknown, o: unknown[]) {
  [r as number] = o;
  return r;
}
function assertedTargetInObject(r: unknown, o: { a: unknown }) {
  ({ a: r as number } = o);
  return r;
}
function assertedRestTarget(r: unknown, o: unknown[]) {
  [...(r as unknown[])] = o;
  return r;
}
function commentEndsLine(b: boolean) {
  let a = 0;
  if (b) return /*
  */ a = 1;
  return a;
}
function forUsing(items: Disposable[]) {
  for (using item of items) console.log(item);
}
export type * from "./types";
