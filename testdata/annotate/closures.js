// Arrows, function and class expressions, object literal methods and accessors, IIFEs:
// each is a function of its own, with its own parameters and versions.
const make = (base) => {
  let v = base;
  const obj = {
    value: v,
    get doubled() { let d = this.value; d *= 2; return d; },
    set doubled(n) { this.value = n / 2; },
    bump(by = 1) { by += 1; return by; },
    ["k" + v]: (w) => w,
    async *gen() {},
  };
  v = (function (x) { x++; return x; })(v);
  const r = ((y) => y * base)(v);
  const C = class { m(z) { return z ?? r; } };
  return [obj, C, r, v];
};
(async () => {
  let s = await make(1);
  s = s.length;
})();
