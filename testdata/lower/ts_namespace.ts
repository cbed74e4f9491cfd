// A namespace with values is a binding holding an object, made by its first declaration and
// read by later ones, and a function called once with it: its body. Exported variables are
// context variables shared by the declarations; the others are locals. A namespace of types
// makes nothing.
namespace N {
  let hidden = 1;
  export let shown = hidden;
  shown = 2;
}
namespace N {
  export const again = shown;
}
namespace Types { export type T = number; }
