// Class expressions: a named one binds its name inside the class only; an anonymous one
// takes the name of its variable.
function exprs(base) {
  let C = class Inner extends base {
    clone() { return new Inner(); }
  };
  const D = class {};
  C = class {};
  return [C, D, typeof Inner];
}
