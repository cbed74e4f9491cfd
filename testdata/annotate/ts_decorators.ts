// Decorator expressions are code, evaluated in source order (class decorators first); a
// decorated class's binding holds the decorators' result. Parameter decorators need
// experimentalDecorators and are evaluated too.
let log: string[] = [];
function tag(name: string) { log.push(name); return (v: any, _c?: any) => v; }
function inject(token: string) { return (_t: any, _k: any, _i: number) => { log = [...log, token]; }; }
let prefix = "cmp";
@tag(prefix)
export class Component {
  @tag(prefix + ".field") field = 1;
  @tag("method") @tag("second") method(@inject("svc") svc: unknown) { return svc; }
  @tag("static") static create() { return new Component(); }
  @tag("accessor") accessor value = prefix;
}
prefix = "changed";
@tag(prefix) abstract class Base {}
export default @tag("default") class Default extends Base {}
