// A named function expression binds its own name inside itself only; a named class
// expression likewise; outside, those names are globals.
let fact = function fact(n) {
  return n <= 1 ? 1 : n * fact(n - 1);
};
const fib = function inner(n) {
  let a = 0, b = 1;
  while (n-- > 0) [a, b] = [b, a + b];
  return inner.length + a;
};
const Node = class Tree {
  static make() { return new Tree(); }
};
inner;
Tree;
fact = fact(5) + fib(3);
