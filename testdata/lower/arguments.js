// arguments aliases the simple parameters of a sloppy function: they become context
// variables. Not in strict code, not with non-simple parameters; arrows use their parent's.
function sloppy(a, b) {
  arguments[0] = 2;
  return a + b;
}
function strict(a) {
  "use strict";
  arguments[0] = 2;
  return a;
}
function nonSimple(a, b = 1) {
  arguments[0] = 2;
  return a + b;
}
function viaArrow(a) {
  const f = () => arguments;
  a = 1;
  return [a, f];
}
