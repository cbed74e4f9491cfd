// Types make no code: annotations, the this parameter (f has one parameter), type arguments,
// overloads, declare fields, abstract members, index signatures, interfaces, type aliases,
// import type. The wrappers x!, x as T, x satisfies T and f<T> are their operand, also as
// targets; x! continues an optional chain, and an optional call's ?. short-circuits.
import type { T } from "./t";
interface I { m(): void }
type U = T | I;
function f(this: U, a: number): T;
function f(this: U, a: any) {
  let g = f<number>;
  a! = (a as number) + 1;
  (a satisfies number)++;
  return g?.(a)!.b;
}
abstract class C<X> {
  [k: string]: unknown;
  declare d: X;
  abstract m(): X;
  e = new Map<string, X>();
}
