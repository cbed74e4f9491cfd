// A function containing `with` or a direct eval is not analyzed: no versions in it. The
// variables a direct eval can see become context variables in their own functions too.
function outer(code) {
  let seen = 1;
  let hidden = 2;
  function evaluates() {
    let local = seen;
    eval(code);
    const inner = () => { let q = 1; q++; return q + local; };
    return inner;
  }
  function indirect() {
    let y = 1;
    (0, eval)(code);
    return y + hidden;
  }
  seen = 3;
  return [evaluates, indirect, seen];
}
function withObject(o) {
  let z = 1;
  with (o) { z = x; o.f = () => { let m = z; return m * x; }; }
  return z;
}
function shadowedEval(eval) {
  let w = 1;
  eval(w);
  return w;
}
