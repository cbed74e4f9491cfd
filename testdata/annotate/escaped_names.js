// An identifier may spell its characters with escapes: \u0061 is the name a.
function rename() {
  let a = 1;
  \u0061 = 2;
  \u{61} += 1;
  return a;
}

// \u0065val is eval: calling it is a direct eval, which sees z, so z is not renamed.
function directEval(s) {
  const z = 5;
  return \u0065val(s);
}
