// Type annotations are erased: declarations, parameters, return types, catch and loop
// bindings, type parameters, type predicates and assertion signatures make no code.
function clamp<T extends number>(value: T, low: number, high: number = low + 1): number {
  let result: number = value;
  if (result < low) result = low;
  else if (result > high) result = high;
  return result;
}
const scale = <T,>(xs: T[], by: number): number[] => {
  let total: number = 0;
  for (const x of xs as number[]) total += x * by;
  return [total];
};
function isText(v: unknown): v is string { return typeof v === "string"; }
function assertText(v: unknown): asserts v is string {
  if (!isText(v)) throw new TypeError("not text");
}
function parse(input: string | undefined): number {
  let n: number;
  try {
    assertText(input);
    n = Number.parseInt(input, 10);
  } catch (e: unknown) {
    n = -1;
  }
  for (let i: number = 0; i < n; i++) n = clamp(n - i, 0, 10);
  return n;
}
let counter: { count: number } = { count: parse("3") };
counter = { count: scale([counter.count], 2)[0] };
