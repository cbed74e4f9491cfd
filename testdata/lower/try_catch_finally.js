// try/catch/finally: the catch body is guarded by the finally (edge at its start and after
// stores); the finally merges normal exits of try and catch and the catch's exceptions.
function tcf(f) {
  let x = 0;
  try {
    x = 1;
    f();
  } catch (e) {
    x = 2;
    f(e);
  } finally {
    use(x);
  }
  return x;
}
