// Short-circuit operators, the conditional operator and logical assignment.
function logic(a, b, c) {
  let x = a && (b = 1);
  let y = a || (c = 2) || (b = 3);
  const z = a ?? (a = b);
  const w = c ? (x = 4) : (y = 5);
  const v = a ? b ? (c = 6) : 7 : (c = 8);
  x &&= y;
  y ||= x;
  a ??= w;
  const o = {};
  o.p ??= (z, v);
  return [a, b, c, x, y, z, w, v];
}
