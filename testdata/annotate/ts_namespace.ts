// A namespace with values is a binding and a nested function body: unexported declarations
// are its locals, exported variables are properties of the namespace object; declarations
// of the same name merge into one object. Type-only and declare namespaces make nothing.
// (module Legacy is the old spelling of namespace, an error since TypeScript 6.)
namespace Geometry {
  const epsilon = 1e-9;
  let calls = 0;
  export let unit = 1;
  export function near(a: number, b: number) {
    calls += 1;
    return Math.abs(a - b) < epsilon * unit;
  }
  unit = 2;
}
namespace Geometry {
  export const twice = near(unit, unit) ? 2 : 0;
}
namespace App.Model.Store { export let size = Geometry.twice; }
module Legacy { export var version = 1; }
namespace Types { export type Id = string; export interface Named { id: Id } }
declare namespace Ambient { let value: number; }
let g = Geometry.near(App.Model.Store.size, Legacy.version);
if (g) g = false;
