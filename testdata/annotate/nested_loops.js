// Deeply nested loops with break and continue to outer labels.
function walk(n, limit) {
  let hits = 0, misses = 0;
  outer: for (const i of n) {
    middle: while (hits < 100) {
      let j = 0;
      do {
        j++;
        if (j === i) continue outer;
        if (j > hits) break middle;
        if (j % 3 === 0) continue middle;
        for (const k of [i, j]) {
          if (k === 0) break outer;
          misses += k;
        }
      } while (j < limit);
      hits++;
    }
    misses--;
  }
  return [hits, misses];
}
