// Evaluation order of an assignment to a member or subscript: the object and the key are
// evaluated before the right side, so a side effect of the key is seen by the right side.
function order(o, i) {
  o[i++] = i;
  o.p = (o = null);
  return [o, i];
}
