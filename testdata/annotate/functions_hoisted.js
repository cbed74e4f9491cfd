// Function declarations are hoisted: they are defined at the start of their scope.
const r = twice(3);
function twice(n) {
  return helper(n) + helper(n);
  function helper(m) { return m; }
}
function reassigned() { return 1; }
if (r > 4) {
  reassigned = function () { return 2; };
}
reassigned();
{
  inner();
  function inner() { return twice(r); }
}
export function exported(x) { return twice(x); }
exported(r);
