// Plain and compound assignment, update expressions, destructuring swap, chained assignment.
function ops(a, b) {
  let x = a;
  x += b; x -= 1; x *= 2; x /= 3; x %= 4; x **= 2;
  x <<= 1; x >>= 1; x >>>= 1; x &= 255; x |= 1; x ^= 3;
  let i = 0;
  const pre = ++i, post = i++;
  --i; i--;
  [a, b] = [b, a];
  ({ a, b: x } = { a: x, b: i });
  a = b = x = i;
  const o = { n: 0 };
  o.n += x; o.n++; o[a] **= b;
  return [x, i, a, b, pre, post];
}
