// x!, x as T, x satisfies T keep the value of x and are valid assignment targets: every
// write below defines a new version of x, y or z.
function wrappers(x: number | undefined, y: string | undefined, z: number[]) {
  let a = x! + 1;
  x! = a;
  (x as number) += 1;
  (x satisfies number | undefined) = x! * 2;
  x!++;
  [x!, y!] = [1, "2"] as [number, string];
  ({ k: y!, z } = { k: y ?? "", z: [a] });
  for (x! of z) a += x!;
  const w = ({ n: a } as const) satisfies { readonly n: number };
  return [x, y, z, w, a as number];
}
function chain(o: { a?: { b: { c(): number } } } | undefined) {
  let v = o?.a!.b.c();
  if (v === undefined) v = (o as any)?.a!.b!.c!();
  return v!;
}
