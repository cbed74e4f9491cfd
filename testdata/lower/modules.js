// Module declarations: imports are defined at the module's entry (never renamed unless
// reassigned); export of declarations, a default expression, a default function and class,
// named exports and re-exports.
import def, { a, b as bee } from "./m.js";
import * as ns from "./ns.js";
export { x as y } from "./other.js";
export * from "./all.js";
let counter = a;
export const total = counter + bee;
counter = ns.f(def);
export { counter };
export default function main() { return counter; }
export class Widget {}
