// Object and array patterns: nesting, defaults, holes, computed keys and rest.
function unpack(obj, arr, key) {
  const { a, b: { c, d = a }, [key]: e = c, ...others } = obj;
  let [x, , y = x, [z] = [y], ...tail] = arr;
  var { p: [q = d] = [], r: s = q } = obj;
  return [a, c, d, e, others, x, y, z, tail, q, s];
}
function params({ a, b = a }, [c, d = c] = [b], { e: [f] = [d] } = {}) {
  return a + b + c + d + f;
}
