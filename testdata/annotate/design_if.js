function f(c) {
  let x = 1;
  if (c) { x = 2; }
  return x;
}
