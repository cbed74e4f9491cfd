// The temporal dead zone: let, const and class read before their declaration see version 0.
function early(c) {
  if (c) use(x, K, C);
  let x = 1;
  const K = x;
  class C {}
  x = K;
  return [x, C];
}
