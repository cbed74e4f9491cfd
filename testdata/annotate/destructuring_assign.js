// Destructuring assignment to existing variables and properties, in statements and in
// for-of heads; the right-hand side is read before any target is written.
function rotate(a, b, c, pairs) {
  [a, b, c] = [b, c, a];
  ({ a, b: { c = a } = {} } = { a: c, b: { c: b } });
  const target = {};
  [target.first, target["second"], ...target.rest] = [a, b, c];
  let x, y;
  for ([x, y = x] of pairs) {
    if (x > y) [x, y] = [y, x];
  }
  let n = 0;
  for ({ n = n } of pairs);
  return [a, b, c, x, y, n, target];
}
