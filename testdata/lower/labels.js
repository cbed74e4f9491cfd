// Labeled statements: labeled break and continue of an outer loop, and a labeled block left
// by break.
function labeled(rows) {
  let found = null;
  outer: for (const row of rows) {
    for (const cell of row) {
      if (cell < 0) continue outer;
      if (cell === 0) { found = row; break outer; }
    }
  }
  block: {
    if (found) break block;
    found = rows;
  }
  return found;
}
