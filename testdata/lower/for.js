// for with let: the test holds the header φ, the update merges the end of the body and the
// continues; a let in the body is Uninit again on each iteration (TDZ re-entry), so a read
// before its declaration sees no value of the previous iteration.
function loop(n) {
  let sum = 0;
  for (let i = 0; i < n; i++) {
    if (i === 2) continue;
    if (i === 3) use(sq);
    let sq;
    if (i > 5) sq = i * i;
    sum += sq;
  }
  return sum;
}
