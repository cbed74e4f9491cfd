// Code after return, throw, break and continue is unreachable and dropped; a loop whose test
// is a truthy literal (1, "s", true) has no exit edge from its test; empty and debugger
// statements lower to nothing.
function dead(c) {
  let x = 0;
  ;
  debugger;
  while (1) {
    if (c) break;
    continue;
    x = 1;
  }
  do {
    x++;
    if (x > 9) throw x;
  } while ("yes");
  x = 2;
  return x;
}
