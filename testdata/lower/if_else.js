// if without else (the skipping edge first), if/else (then before else), nested ifs, and a
// branch that returns.
function branches(a, b) {
  let x = 0;
  if (a) x = 1;
  let y = x;
  if (b) { y = 2; } else { y = 3; }
  if (a) {
    if (b) x = 4;
  } else {
    return y;
  }
  return [x, y];
}
