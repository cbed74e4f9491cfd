// Annex B: a function declaration as the body of an if (sloppy code) is a var of the function,
// assigned when the if body runs; before that it reads version 0 (undefined). A function
// declared in a block is hoisted within the block; in sloppy code it is also a var of the
// function (Annex B.3.3) and a labeled function declaration is hoisted (Annex B.3.2).
function annex(flag) {
  const before = g;
  if (flag) function g() { return 1; }
  else function h() { return 2; }
  return [before, g, h];
}
function inBlock() {
  {
    function k() { return 3; }
  }
  return k;
}
function labeledFn() {
  const early = l;
  lbl: function l() {}
  return early;
}
