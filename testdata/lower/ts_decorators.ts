// Decorators in TypeScript's trees: a class's before `export` belong to it; a method's are
// siblings before it in the class body; a parameter's are evaluated with its method's.
function deco(d: any) {
  @d
  class A {
    @d m(@d p: number) {}
  }
  return A;
}
@deco(1) export class B {}
