// return inside try/finally: the returned value is kept while the finally runs, then the
// finally's dispatch returns it; a return in the finally overrides.
function ret(c) {
  let x = 1;
  try {
    if (c) return x;
    x = 2;
  } finally {
    x = 3;
  }
  return x;
}
function override() {
  try {
    return 1;
  } finally {
    return 2;
  }
}
