// Parameters: defaults see earlier parameters, destructuring patterns, rest; a default
// referring to a later parameter reads its version 0.
function params(a, b = a + 1, { c, d: [e] = [] } = {}, f = g, g = 0, ...rest) {
  a = b;
  return [a, b, c, e, f, g, rest];
}
const arrowParam = x => x;
const arrowDestr = ([x, y] = [1, 2]) => x + y;
