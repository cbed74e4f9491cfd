// try/finally without catch: the finally runs after normal completion and after an exception,
// which it throws again.
function tf(f) {
  let x = 0;
  try {
    x = 1;
    f();
  } finally {
    use(x);
  }
  return x;
}
