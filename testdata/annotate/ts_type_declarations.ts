// Interfaces, type aliases and overload signatures make no code and no bindings: the
// interface Shape and the value Shape below are unrelated, and only the implementation
// of area binds a function.
interface Shape { kind: string; size: number; area?(): number }
type Pair<T> = [T, T];
type Kind = Shape["kind"];
function area(s: Shape): number;
function area(s: Pair<number>): number;
function area(s: Shape | Pair<number>): number {
  let a = 0;
  if (Array.isArray(s)) a = s[0] * s[1];
  else a = s.size * s.size;
  return a;
}
let Shape = { kind: "square" as Kind, size: 2 };
Shape = { ...Shape, size: area(Shape) };
export function total(xs: Shape[]): number;
export function total(xs: Shape[], start?: number): number {
  let sum = start ?? 0;
  for (const x of xs) sum += area(x);
  return sum;
}
