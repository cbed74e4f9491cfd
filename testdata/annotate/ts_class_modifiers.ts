// accessor fields are a getter, a setter and private storage initialized like a field;
// override, readonly, public, protected, private and static-ness of members make no code of
// their own.
class Base { size = 1; describe(): string { return "base"; } }
class Counter extends Base {
  private static instances = 0;
  public readonly id: number;
  protected accessor count = 0;
  static readonly label = "counter";
  override size = 2;
  #secret = Counter.instances;
  constructor() {
    super();
    let next = Counter.instances + 1;
    if (next > 100) next = 0;
    Counter.instances = next;
    this.id = next;
  }
  override describe(): string {
    let d = super.describe();
    if (this.count > 0) d = `${d}:${this.count}`;
    return d + this.#secret;
  }
  public increment(by = 1): this { this.count += by; return this; }
}
let c = new Counter().increment();
c = c.increment(2);
