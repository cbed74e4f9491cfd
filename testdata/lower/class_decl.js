// Class declarations: heritage, constructor, methods, static methods, accessors; the class
// binding is in its TDZ before the declaration and can be reassigned.
function classes(Base) {
  let B = Base;
  class Point extends B {
    constructor(x) { super(x); this.x = x; }
    get len() { return this.x; }
    set len(v) { this.x = v; }
    static of(x) { return new Point(x); }
    move(d) { let x = this.x; x += d; return x; }
  }
  B = null;
  const p = Point.of(1);
  Point = null;
  return p;
}
