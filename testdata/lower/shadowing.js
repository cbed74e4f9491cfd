// Scopes: a block's let shadows the outer one (two bindings of the same name), a catch
// parameter shadows, a var redeclaring a parameter is the parameter, a var in a block
// belongs to the function.
function shadow(x, p) {
  let y = x;
  {
    let y = 2;
    y++;
    var z = y;
  }
  try { y = 3; } catch (y) { y = 4; }
  var p;
  return [y, z, p];
}
