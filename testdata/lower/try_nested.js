// Nested try: an inner try without catch rethrows to the outer handler; a throw in an inner
// catch goes to the outer catch.
function nested(f) {
  let x = 0;
  try {
    try {
      x = 1;
      f();
    } catch (e) {
      x = 2;
      throw e;
    }
    try {
      x = 3;
    } finally {
      x = 4;
    }
  } catch (e) {
    return x;
  }
  return x;
}
