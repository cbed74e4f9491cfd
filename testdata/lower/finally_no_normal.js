// A try block that never completes normally (it ends with break): its finally has no normal
// completion, so the statement after the try is unreachable and the loop has no back edge.
function f(c) {
  let x = 0;
  while (c) {
    try { x = 1; break; } finally { x++; }
    x = 5;
  }
  return x;
}
