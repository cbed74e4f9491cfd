// Two functions ssalens does not analyze: a with statement, a direct eval.
function scoped(o) {
  with (o) {
    return x;
  }
}

function evaluated(s) {
  let y = 1;
  eval(s);
  return y;
}

function analyzed(a) {
  let b = a;
  if (a) b = 2;
  return b;
}
