// Destructuring assignments: object and array patterns with defaults, holes, rest, nested
// patterns and members as targets; declarations with patterns.
function destr(src, o) {
  let a, b, c, rest;
  ({ a, b: c = a, ...rest } = src);
  [a, , b = c, ...rest] = src;
  [o.x, o[a]] = [b, c];
  ({ p: { q: a } = {} } = src);
  const { k, l: [m] } = src;
  return [a, b, c, rest, k, m];
}
