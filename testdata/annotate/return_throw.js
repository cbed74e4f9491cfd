// return and throw in the middle: the code after them is unreachable and shows no versions.
function check(x, strict) {
  let msg = "ok";
  if (x < 0) {
    msg = "negative";
    if (strict) throw new RangeError(msg);
    return msg;
    msg = "unreachable";
  }
  if (x === 0) {
    throw msg;
  } else if (x > 10) {
    msg = "large";
  }
  return msg;
  let dead = msg;
  dead++;
}
const arrow = (y) => { if (y) return y; y = 1; return y; };
function empty() { return; }
