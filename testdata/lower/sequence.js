// Comma (sequence) expressions: each operand in order, the last is the value; parenthesized
// expressions; a comma in a for header.
function seq(a) {
  let x = 0, y = 0;
  const r = (x = a, y = x + 1, x + y);
  for (x = 0, y = 1; x < a; x++, y *= 2);
  return [r, (x, y)];
}
