// Nested blocks: each let/const/class is its own binding; an inner one shadows the outer.
function shadow(x) {
  let y = x;
  {
    let x = y + 1;
    y = x;
    {
      const x = "inner";
      class y {}
      x + y;
    }
    x = x * 2;
  }
  if (y) {
    let y = 0;
    y++;
  }
  function x2() { let x = 1; return x; }
  return x + y;
}
