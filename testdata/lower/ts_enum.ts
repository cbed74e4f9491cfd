// An enum is a binding holding an object: the first declaration makes it (Enum) and stores it,
// a later one of the same name reads it; each initializer runs in order and is stored as a
// property, and a member's bare name in an initializer reads that property of the object.
let base = 2;
enum E { A = base, B, C = A * 2 }
enum E { D = C + 1 }
function f() {
  const enum Local { X = 1 }
  return Local.X + E.D;
}
