// Named function expressions bind their own name inside (Callee); assigning it is ignored.
// An anonymous function expression takes the name of the variable it initializes.
function make(k) {
  const fact = function f(n) {
    f = null;
    return n <= 1 ? 1 : n * f(n - 1);
  };
  let anon = function () { return k; };
  anon = function g() { return g; };
  return [fact, anon];
}
