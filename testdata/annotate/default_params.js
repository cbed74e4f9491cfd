// Parameter defaults see the earlier parameters; a later one is still in its TDZ.
function f(a, b = a + 1, c = b * 2, d = e, e = 0) {
  return a + b + c + d + e;
}
const g = (x = 1, { y = x, z } = {}, [w = y] = []) => x + y + z + w;
function h(p = () => q, q = 1) {
  return p();
}
function k(s, t = s) {
  s = 2;
  var t;
  return s + t;
}
