// abstract classes are code, their abstract members are not; index signatures and declare
// fields make nothing; an optional field (x?) and a definite one (w!) are plain fields.
abstract class Store<T> {
  [key: string]: unknown;
  abstract readonly name: string;
  declare cache: Map<string, T>;
  hits?: number;
  misses!: number;
  size = 0;
  abstract load(key: string): T;
  protected abstract get ready(): boolean;
  get(key: string): T {
    let v = this.load(key);
    if (v === undefined) v = this.load(key.toLowerCase());
    this.size += 1;
    return v;
  }
}
class Memory extends Store<number> {
  readonly name = "memory";
  protected get ready() { return true; }
  load(key: string) { let n = key.length; n *= 2; return n; }
}
let s: Store<number> = new Memory();
s = s.get("a") > 1 ? s : new Memory();
