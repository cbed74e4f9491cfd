// Labeled statements: labeled blocks, labeled break and continue across loops.
function search(grid, target) {
  let found = null, visited = 0;
  outer: for (const row of grid) {
    inner: for (const cell of row) {
      visited++;
      if (cell === target) {
        found = cell;
        break outer;
      }
      if (cell < 0) continue outer;
      if (cell === 0) break inner;
    }
    visited += 10;
  }
  block: {
    if (found === null) break block;
    found = found * 2;
  }
  a: b: while (visited > 0) { visited--; if (visited % 7) continue a; else break b; }
  empty: ;
  return [found, visited];
}
