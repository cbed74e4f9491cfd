// Compound assignments: arithmetic ones read then write; &&= ||= ??= write only on the
// path that evaluates the right side; on variables, members and subscripts.
function compound(a, o, i) {
  let x = a;
  x += 1;
  x **= 2;
  x &&= a;
  x ||= 5;
  x ??= o;
  o.p += x;
  o[i] -= 1;
  o.q ??= x;
  return x;
}
