// Generators: yield, yield with no value, yield* (delegation); the received value is a value.
function* gen(n) {
  let i = 0;
  while (i < n) {
    const got = yield i;
    i = got ?? i + 1;
  }
  yield;
  yield* other(i);
}
const genExpr = function* () { yield 1; };
