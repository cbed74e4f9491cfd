// A fixture for the editor tests: an if that merges two versions, a loop with i++.
function pick(c) {
  let x = 1;
  if (c) {
    x = 2;
  }
  return x;
}

function count(n) {
  let i = 0;
  while (i < n) {
    i++;
  }
  return i;
}

function overwrite() {
  let y = 1;
  y = 2;
  return y;
}
