// while and do-while: a do loop's header φ sits at the start of its body.
function collatz(n) {
  let steps = 0;
  while (n !== 1) {
    if (n % 2 === 0) n = n / 2;
    else n = 3 * n + 1;
    steps++;
  }
  let x = steps;
  do {
    x -= 3;
  } while (x > 0);
  do x++; while (x < 3)
  let y = 0;
  while (true) {
    y++;
    if (y > x) break;
    if (y === 2) continue;
    x--;
  }
  return [steps, x, y];
}
