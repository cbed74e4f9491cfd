#!/usr/bin/env node
<!-- an HTML-like comment, allowed in scripts
// Unusual but valid syntax: hashbang, HTML comments, empty statements, labeled blocks,
// bigint/octal/binary literals, regex literals with `/` in a class, new.target, async arrows.
var n = 0x1fn + 0o17n, m = 0b101 + 1_000 + 017;
;;;
done: { if (n) break done; n = 0n; }
--> also an HTML-like comment at the start of a line
const re = /[/\]]+\//g, parts = "a/b".split(re);
function Maker() {
  if (!new.target) return new Maker();
  this.made = re;
}
const later = async (x) => { let y = await x; y ??= parts; return y; };
if (m) function hoisted() { return re; }
do m--; while (m > 1000)
for (;;) break;
for (n, m; ; ) { m = m + 1; if (m) break; }
