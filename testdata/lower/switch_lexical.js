// Lexical declarations in a switch body are scoped to the whole body (one TDZ); function
// declarations in cases are hoisted to the start of the body.
function swl(v) {
  switch (v) {
    case 0:
      let a = 1;
      return f(a);
    case 1:
      a = 2;
      return a;
    default:
      function f(x) { return x; }
      const c = f;
      return c;
  }
}
