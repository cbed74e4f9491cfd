// An else-if chain: every arm assigns, one join per if; the last else is missing.
function classify(n) {
  let kind = "none";
  if (n < 0) kind = "neg";
  else if (n === 0) kind = "zero";
  else if (n < 10) kind = "small";
  return kind;
}
