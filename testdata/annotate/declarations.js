// var, let and const with several declarators; `let x;` is a definition, `var x;` is not.
var a = 1, b = a + 1, c;
let d, e = b, f = e * 2;
const g = f, h = g + d;
var a = a + h;
c = a;
function scoped(p) {
  var q, r = p;
  let s;
  const t = r, u = t;
  if (p) {
    var q = s;
  }
  s = q;
  return [q, r, s, t, u];
}
