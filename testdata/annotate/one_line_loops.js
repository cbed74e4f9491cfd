// A loop on one line shows its header's φ and its exit's φ side by side, as on several lines:
// only φs where control flow joins once, as an else-if chain's do, are folded into one.
function forIn(o) {
  let k = 'none';
  for (k in o) { if (k === 'x') break; }
  return k;
}
function whileLoop(n) {
  let i = 0; while (i < n) { if (i === 3) break; i++; } return i;
}
function elseIf(a) {
  let x = 0;
  if (a === 1) x = 1; else if (a === 2) x = 2; else if (a === 3) x = 3;
  return x;
}
