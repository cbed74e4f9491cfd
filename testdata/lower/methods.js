// Object literal methods, getters, setters and computed method keys: each is its own function;
// a computed key is evaluated in the enclosing function.
function obj(key) {
  let k = key;
  const o = {
    m(x) { return x + 1; },
    get v() { return this._v; },
    set v(x) { this._v = x; },
    [k]() { return k; },
    async am() { await 1; },
    *gen() { yield 1; },
  };
  k = null;
  return o;
}
