// A syntax error in one function: that function is not analyzed, the others are.
function good(a) {
  let x = a;
  if (x) x = 2;
  return x;
}
function broken(b) {
  let y = b;
  y = y + ;
  return y;
}
function alsoGood(c) {
  let z = c * 2;
  return z;
}
