// A switch body is one block scope: a let in one case is in its TDZ in the cases before it.
// Inside a loop, break leaves the switch and continue goes to the loop.
function run(ops) {
  let acc = 0, i = 0;
  while (i < ops.length) {
    const op = ops[i++];
    switch (op.kind) {
      case "skip":
        continue;
      case "set":
        let tmp = op.value;
        acc = tmp;
        break;
      case "stop":
        return acc;
      default:
        function fallback() { return op; }
        acc -= fallback().value;
    }
    acc *= 2;
  }
  return acc;
}
function tdzCase(k) {
  switch (k) {
    case 0:
      return early;
    case 1:
      const early = k;
      return early;
  }
}
