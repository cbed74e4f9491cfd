// for without a test (left only by break), with a var or an expression initializer, without
// an update, with a comma update.
function forms(n) {
  let i = 0;
  for (;;) {
    if (i > n) break;
    i++;
  }
  for (var j = 0, k = n; j < k; j++, k--) {}
  for (i = 0; i < n;) i += 2;
  return [i, j, k];
}
