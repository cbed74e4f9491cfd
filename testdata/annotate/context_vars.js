// Context variables show no version anywhere: assigned in a nested function, or assigned
// more than once and read by one. A single definition read by a closure is a normal value.
function counter(start) {
  let count = start;
  const step = 2;
  let label = "n";
  label = label + count;
  const inc = () => { count += step; return count; };
  const show = function () { return label; };
  let once = start * step;
  const get = () => once + step;
  for (let i = 0; i < 3; i++) {
    setTimeout(() => i);
  }
  function reset() { start = 0; }
  return [inc, show, get, reset, label, count, once];
}
