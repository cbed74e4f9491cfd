// Optional chaining short-circuits the rest of the chain; a parenthesized chain ends it.
function chains(a, b, c) {
  let n = 0;
  const x = a?.b.c(n = 1);
  const y = a?.[b]?.(c = 2);
  const z = (a?.b).c;
  const w = a.b?.c?.[n++];
  const f = a?.();
  const g = a?.b?.(...[n, c]);
  return [n, c, x, y, z, w, f, g];
}
