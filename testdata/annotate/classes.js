// Classes: constructor, methods, accessors, static and instance fields, static blocks.
let count = 0;
const scale = 2;
class Point extends Base {
  x = count * scale;
  static origin = new Point(0, 0);
  #secret = 1;
  static {
    let n = count;
    n += 1;
    Point.made = n;
  }
  constructor(x, y) {
    super(x);
    if (y === undefined) y = 0;
    this.y = y;
  }
  get norm() { return Math.hypot(this.x, this.y); }
  set norm(v) { const k = v / this.norm; this.x *= k; }
  static from([x, y]) { return new Point(x, y); }
  has(o) { return #secret in o; }
  [Symbol.iterator]() { return [this.x, this.y].values(); }
}
const p = Point.from([1, 2]);
count = p.norm;
