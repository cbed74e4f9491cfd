// for-in and for-of: the header φ sits at the iteration binding; let/const/var bindings,
// a destructuring binding, an existing variable and a property as target.
function iter(obj, list, o) {
  let last = null;
  for (const key in obj) last = key;
  for (let [a, b] of list) { a = b; last = a; }
  var v;
  for (v of list) if (v) break;
  for (o.p in obj) continue;
  for (var w in obj) {}
  return [last, v, w];
}
