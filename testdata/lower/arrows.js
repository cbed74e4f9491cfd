// Arrow functions: expression bodies return their value, block bodies lower as functions;
// this and arguments belong to the enclosing function.
function host(a) {
  let n = a;
  const inc = (x) => x + n;
  const block = (x) => {
    let y = x;
    if (y) y = y * 2;
    return y;
  };
  const args = () => arguments[0];
  const self = () => this;
  n = inc(n);
  return [block(n), args, self];
}
