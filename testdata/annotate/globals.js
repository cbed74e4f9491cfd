// Names that resolve to no declaration are globals: never renamed, even when assigned.
counter = 0;
function tick() {
  counter++;
  window.ticks = counter;
  undeclared = Math.max(counter, 1);
  return typeof missing === "undefined" ? globalThis : undeclared;
}
for (k in window) total += k;
arguments;
