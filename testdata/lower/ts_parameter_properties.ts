// Parameter properties: the parameter, then this.x = x at the start of the constructor, or
// right after the super(…) statement of a derived class's constructor.
class A {
  constructor(public x: number, y: number, readonly z = y) {}
}
class B extends A {
  constructor(private w: number) {
    const v = w + 1;
    super(v, w);
    w = 0;
  }
}
