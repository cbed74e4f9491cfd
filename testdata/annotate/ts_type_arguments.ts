// Type arguments of calls, new and instantiation expressions are erased, and so is the
// this parameter: handle has one parameter, ev, and g is the function f itself.
function f<T>(x: T): T { return x; }
function handle(this: HTMLElement, ev: Event) {
  let target = this;
  if (ev.bubbles) target = f<HTMLElement>(target);
  return target;
}
const g = f<number>;
let m = new Map<string, number>();
let n = f<number>(g(1));
if (n > 1) m = new Map<string, number>([["n", n]]);
n = m.get("n")!;
const box = { of<T>(this: void, v: T) { return [v]; } };
n = box.of<number>(n)[0];
