// Update expressions: prefix returns the new value, postfix the old; on variables, members
// and subscripts (object and key evaluated once); on a global.
function upd(o, i) {
  let x = 0;
  const a = x++;
  const b = ++x;
  const c = x--;
  --x;
  o.n++;
  --o[i];
  count++;
  return [a, b, c, x];
}
