// Function declarations are hoisted to the start of their scope (block scoped in a block) and
// can be reassigned like a var.
function outer(c) {
  let r = inner(1);
  function inner(n) { return n + 1; }
  {
    r = local();
    function local() { return 2; }
  }
  if (c) inner = null;
  return [r, inner];
}
