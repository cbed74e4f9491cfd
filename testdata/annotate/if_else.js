// if / else if / else chains: one φ per join, then-branch operands first.
function classify(n) {
  let kind = "zero", sign;
  if (n > 0) {
    kind = "positive";
    sign = 1;
  } else if (n < 0) {
    kind = "negative";
    sign = -1;
  } else {
    sign = 0;
  }
  if (kind === "zero") return sign;
  if (n > 100) kind = "big"; else if (n > 10) kind = "medium";
  if (n % 2) {
  } else {
    n = n / 2;
  }
  return kind + sign + n;
}
