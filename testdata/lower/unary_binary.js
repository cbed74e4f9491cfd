// Unary operators (delete of properties and of a variable, typeof, void, !, -, +, ~) and
// binary operators (arithmetic, comparison, in, instanceof), left before right.
function ops(a, b, o) {
  let x = -a + +b * ~a;
  x = !x || typeof x;
  x = void 0;
  delete o.p;
  delete o[a];
  delete x;
  x = a in o;
  x = o instanceof b;
  x = a ** 2 % b - (a << 1) >>> 2;
  x = a === b !== (a != b);
  return x;
}
