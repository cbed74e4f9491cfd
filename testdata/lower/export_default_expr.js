// export default of an expression: evaluated in the module function, binding nothing.
import { base } from "./base.js";
let n = base;
n = n + 1;
export default n * 2;
