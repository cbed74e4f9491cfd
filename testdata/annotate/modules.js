// Imports are defined at module entry; an export clause names local variables without reading them.
import React, { useState as useLocal, useEffect } from "react";
import * as path from "node:path";
import "./side-effect.js";
export { join } from "node:path";
export * as fs from "node:fs";
export default function main(arg) {
  return path.join(arg, helper);
}
export let helper = useLocal(0);
helper = React.version;
export const [first, second = helper] = useEffect();
let local = first;
export { local, local as alias, second as default2 };
export * from "./other.js";
