// Simple assignments: to variables (chained, right to left), to members and subscripts, to
// globals; an assignment's value is its right side.
function assign(o, i) {
  let a, b;
  a = b = i;
  o.p = a;
  o[i] = b;
  o.q.r = o[i + 1] = a;
  g = a;
  (a) = 2;
  return [a, b, g];
}
