// let x!: T declares x without a value (it still ends the temporal dead zone with
// undefined, like let x;); var y!: T is only a declaration; optional parameters (p?) are
// parameters like any other, undefined when not passed.
let ready!: boolean;
var cached!: string;
function init(flag?: boolean, name?: string, { depth }: { depth?: number } = {}, [first]: number[] = []) {
  if (flag === undefined) flag = false;
  ready = flag;
  let label = name ?? "none";
  if (depth) label += depth + (first ?? 0);
  cached = label;
  return label;
}
init();
let later!: number;
setTimeout(() => { later = 1; });
export { ready, cached, later };
