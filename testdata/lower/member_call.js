// Member and subscript reads, calls (plain, method, with spread arguments), new with and
// without arguments, this and super.
class Derived extends Base {
  m(o, i) {
    let v = o.p.q;
    v = o[i][i + 1];
    v = o.f(v, ...i);
    v = f(v)(i);
    v = new o.C(v);
    v = new C;
    return super.m(this.x, v);
  }
}
