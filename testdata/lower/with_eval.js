// A with statement or a direct eval (also through parentheses: (eval)(…)) makes the function
// not analyzed; the variables a direct eval can see become context variables, also in the
// analyzed enclosing function; an indirect eval (eval?.() or (0, eval)()) is an ordinary call.
function withStmt(o) {
  let x = 1;
  with (o) { x = y; }
  return x;
}
function outer(code) {
  let seen = 1;
  function evals() { return eval(code); }
  seen = 2;
  let indirect = eval?.(code);
  indirect = (0, eval)(code);
  return [seen, evals, indirect];
}
function parenEval(code) {
  let x = 1;
  (eval)(code);
  return x;
}
