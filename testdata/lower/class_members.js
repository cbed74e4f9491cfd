// Class fields with initializers (each its own function), static fields, computed keys
// (evaluated in the enclosing function, in order), private names, static blocks.
function members(seed) {
  let key = "a";
  let n = seed;
  class K {
    x = n * 2;
    y;
    static count = 0;
    [key] = 1;
    #secret = n;
    static {
      let t = K.count;
      t++;
      K.count = t;
    }
    has(o) { return #secret in o; }
    get() { return this.#secret; }
    #priv() { return 1; }
  }
  key = "b";
  return K;
}
