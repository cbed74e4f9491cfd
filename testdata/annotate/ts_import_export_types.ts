// import type, export type and type-only specifiers bind nothing: only Store, read and
// defaultOptions are imports; the local Options may reuse the name of a type-only import.
import type { Options as Opts, Mode } from "./types";
import type Default from "./default";
import type * as Types from "./types";
import { type Entry, Store, type Key as K, read } from "./store";
import defaultOptions, { type Extra } from "./defaults";
export type { Mode } from "./types";
export type { Opts };
let Options: Opts | undefined = defaultOptions;
function open(key: K, mode: Mode): Entry | Extra | Default | Types.Any {
  let store = new Store(Options);
  if (mode === "fresh") store = new Store(undefined);
  Options = undefined;
  return read(store, key);
}
export { type Entry, open, Options };
