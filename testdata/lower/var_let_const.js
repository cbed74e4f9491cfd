// var, let and const with and without initializers; var hoisting reads version 0 (undefined).
function decls(a) {
  use(v);
  var v = a;
  var v;
  var w;
  let x;
  let y = 1, z = y;
  const k = z + 1;
  v = v + k;
  x = v;
  return [v, w, x, y, z, k];
}
