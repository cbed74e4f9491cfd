// A syntax error (also a break with no target) makes only its own function not analyzed; the
// others are lowered as usual.
function good(a) {
  let x = a;
  if (x) x = 2;
  return x;
}
function bad(a) {
  let y = a +;
  return y;
}
function alsoGood(b) {
  return b * 2;
}
function strayBreak(c) {
  if (c) break;
  return c;
}
