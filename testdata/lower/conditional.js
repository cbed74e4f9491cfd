// The conditional operator: then before else at the join, nested conditionals.
function cond(a, b) {
  let x = 0;
  const r = a ? (x = 1) : (x = 2);
  const s = a ? b ? 1 : 2 : x;
  return [r, s, x];
}
