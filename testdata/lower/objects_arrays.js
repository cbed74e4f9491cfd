// Object literals (plain, shorthand, computed keys, spread, methods) and array literals
// (holes, spread); named evaluation gives a property's function value its key's name.
function build(a, b, key) {
  let x = a;
  const o = { a, b: b + 1, [key]: x, ...b, m() { return 1; }, f: () => x, "s": 1, 2: 3 };
  x = [a, , b, ...key, ,];
  return [o, x, [], {}];
}
