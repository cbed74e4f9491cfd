// Logical operators: && || ?? evaluate the right side only on one path; an assignment in the
// right side needs a φ at the join.
function logic(a, b) {
  let x = 0;
  const r1 = a && (x = 1);
  const r2 = a || (x = 2);
  const r3 = a ?? (x = 3);
  const r4 = a && b || x;
  return [r1, r2, r3, r4, x];
}
