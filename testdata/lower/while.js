// while: header φs at the test (entry before back edges); while (true) has no exit edge
// from its test; break and continue.
function wh(n) {
  let i = 0, s = 0;
  while (i < n) {
    i++;
    if (i % 2) continue;
    s += i;
  }
  while (true) {
    s--;
    if (s < 0) break;
  }
  return [i, s];
}
