// for loops: the header φ sits at the test; per-iteration let bindings; comma in headers.
function sum(arr) {
  let total = 0;
  for (let i = 0, n = arr.length; i < n; i++) {
    total += arr[i];
  }
  for (var j = 0, k = 10; j < k; j++, k--) {
    if (arr[j] === k) break;
  }
  const fns = [];
  for (let m = 0; m < 3; m++) {
    const copy = m;
    fns.push(() => copy);
  }
  for (;;) {
    if (total > 100) break;
    total *= 2;
  }
  for (total = -total; total < 0; ) total++;
  return total + j + k;
}
