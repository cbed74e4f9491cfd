// A captured variable with a single definition is a normal SSA value: the nested
// function's use shows the outer version, through any depth of nesting.
function outer(p, list) {
  const { a, b: [c] } = p;
  let total = a + c;
  const add = (x) => total + x;
  return list.map(function (item) {
    const scaled = item * c;
    return () => ({
      sum: add(scaled) + p.offset,
      method() { return [a, total, scaled]; },
    });
  });
}
const config = { depth: 2 };
class Reader {
  read() { return config.depth; }
}
for (const entry of [1, 2]) {
  queueMicrotask(() => entry);
}
