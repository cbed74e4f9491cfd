// try/catch: an edge to the handler at the start of the try body and after every store, so
// the catch φ merges every state an exception can leave.
function tc(f) {
  let x = 0;
  try {
    x = 1;
    f();
    x = 2;
  } catch (e) {
    return [x, e];
  }
  return x;
}
