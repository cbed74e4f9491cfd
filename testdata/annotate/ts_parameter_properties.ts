// A parameter property (constructor(private x)) is the parameter plus a store to this.x at
// the start of the constructor, after super(): reassigning the parameter later does not
// change the property.
class Point {
  constructor(public x: number, public readonly y = x * 2, private label?: string) {
    if (x < 0) x = -x;
    this.label = label ?? String(x);
  }
}
class Point3 extends Point {
  constructor(x: number, protected z: number, override readonly y: number = z) {
    let sum = x + z;
    super(sum, y);
    if (sum > 10) z = 10;
    this.z += z;
  }
}
let p: Point = new Point3(1, 2);
p = p.x > 0 ? p : new Point(0);
// Reassigned before super(), a parameter property stores the new value. The read that stores
// it comes after super() and has no text of its own: the parameter shows its own version only.
class Shifted extends Point {
  constructor(private a: number) {
    a = a + 1;
    super(a);
  }
}
