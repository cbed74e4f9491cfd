// A nested try inside an outer try: the states its stores leave, and the states on entry to
// its catch or finally block, can reach the outer catch (when code after the inner try, or in
// the inner catch or finally, throws before its next store); the outer catch must merge them.
function afterInner(g) {
  let x = 0;
  try {
    try { x = 1; } catch {}
    g();
  } catch {
    return x;
  }
  return x;
}
function inCatch(f) {
  let x = 0;
  try {
    try { x = 1; f(); } catch { f(); x = 2; }
  } catch {
    return x;
  }
}
function inFinally(f) {
  let x = 0;
  try {
    try { x = 1; f(); } finally { f(); x = 2; }
  } catch {
    return x;
  }
}
