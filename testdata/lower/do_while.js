// do-while: the body is the header; continue goes to the test.
function dw(n) {
  let i = 0;
  do {
    if (i === 3) { i = 10; continue; }
    i++;
  } while (i < n);
  return i;
}
