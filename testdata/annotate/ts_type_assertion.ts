// <T>x (only in .ts, where it is no JSX) keeps the value of x and is a valid assignment
// target in parentheses.
function assert(input: unknown, fallback: string) {
  let s = <string>input;
  if (!s) s = <string>(<unknown>fallback);
  (<string>input) = s + "!";
  const list = <const>["a", s];
  return [input, list, <number><unknown>s];
}
