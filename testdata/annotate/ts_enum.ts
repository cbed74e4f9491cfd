// An enum is a binding defined once, by its declaration, with the member initializers
// evaluated in order; inside them an earlier member's name reads that member. A second
// declaration of the same enum adds members to the same object; const enums and declare
// enums work the same way for reads.
let base = 1;
enum Color { Red, Green = base * 2, Blue = Green + 1, Named = "n".length }
const enum Flag { None = 0, A = 1 << 0, B = 1 << 1, AB = A | B }
enum Color { Alpha = 10 }
export enum Side { Left = "L", Right = "R" }
function pick(c: Color, wide: boolean) {
  let f = Flag.None;
  if (wide) f = Flag.AB;
  enum Local { One = 1, Two }
  let side = c === Color.Red ? Side.Left : Side.Right;
  return [f, side, Local.Two, Color.Alpha];
}
base = Color.Blue;
