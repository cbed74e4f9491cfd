// Template literals, tagged templates, spread, new, delete, typeof, void, in, instanceof,
// sequence expressions, exponent and bitwise operators: each operand read in order.
function misc(obj, key, Ctor, args) {
  let s = `${key}: ${obj[key]} and ${`nested ${s}`}`;
  const t = tag`a${s}b${key}`;
  const copy = { ...obj, [key]: s, s, t };
  const list = [...args, ...copy.items, , key];
  const inst = new Ctor(...list, s);
  const plain = new Ctor;
  delete obj[key], delete copy.s;
  let seq = (s = typeof obj, key in obj, inst instanceof Ctor);
  void (seq = !seq);
  const math = (-key) ** 2 + (~key & 0xff) + 0o17 + 10n + .5e-3;
  const re = /[/\]]+/g.test(s);
  return [s, t, copy, plain, seq, math, re];
}
