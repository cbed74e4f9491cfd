// import x = require(...) binds x to the module, import y = N.z binds y to the value read
// from N.z (in place, like var y = N.z), export import in a namespace also makes a property;
// export = reads its expression. (A CommonJS module: TypeScript rejects these in ES modules.)
import fs = require("fs");
import type Path = require("path");
namespace Settings {
  export const file = "a.json";
  export namespace Nested { export let depth = 1; }
  export import Reexported = Nested;
}
import file = Settings.file;
import Depth = Settings.Nested;
import Reexported = Settings.Reexported;
function load(p: Path.ParsedPath) {
  let text = fs.readFileSync(file, "utf8");
  if (!text) text = fs.readFileSync(p.base, "utf8");
  Depth.depth += 1;
  return text;
}
let loader = load;
if (Reexported.depth > 2) loader = () => "";
export = loader;
