// switch: case tests are evaluated before the dispatch; fall-through, break, default in the
// middle, a case with no statements, no default (exit is the default target).
function sw(v) {
  let x = 0;
  switch (v) {
    case 1:
      x = 1;
    case 2:
      x += 2;
      break;
    default:
      x = -1;
    case 3:
    case 4:
      x = x * 4;
  }
  switch (x) {
    case 0: return x;
  }
  return x;
}
