// declare makes no code and no binding: an ambient name read below is a global, and the
// local x is a plain variable. (declare global needs a module: hence the export.)
declare const VERSION: string;
declare let debug: boolean;
declare function log(msg: string): void;
declare class Widget { constructor(id: number); render(): string }
declare enum Level { Low, High }
declare namespace Config { const path: string; }
declare module "virtual:config" { export const mode: string; }
declare global { interface Window { app: unknown } }
function boot(id: number) {
  let label = VERSION;
  if (debug) label = label + Config.path;
  const w = new Widget(id);
  log(label);
  return [w.render(), Level.High];
}
let x: number = boot(1).length;
x = x * 2;
export { boot };
