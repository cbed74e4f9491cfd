// Decorators on a class and its members are evaluated in the enclosing function.
function deco(log, bound) {
  let d = log;
  @d
  class A {
    @bound m() {}
  }
  d = null;
  return A;
}
