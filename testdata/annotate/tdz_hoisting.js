// Version 0: a let/const read in its temporal dead zone, a var read before assignment.
function tdz(flag) {
  const early = later;
  let later = 1;
  if (flag) {
    console.log(v);
    var v = 2;
  }
  typeof u;
  let u;
  return [early, later, v];
}
console.log(top);
var top = "top";
const fromFn = () => lateConst;
const lateConst = 5;
function loop(n) {
  for (let i = i; i < n; i++) {}
  var acc;
  while (n--) acc = (acc || 0) + n;
  return acc;
}
