// Optional chains: a nullish value at any optional link short-circuits the whole chain to
// undefined (a join with a Copy on each path): a?.b.c, a?.(), a?.[i], two optional links;
// delete of an optional chain short-circuits too.
function chains(a, i) {
  let v = a?.b.c;
  v = a?.(v);
  v = a?.[i];
  v = a?.b?.c(i);
  v = a.b?.[i++];
  return [v, i];
}
function deleteChain(a, i) {
  delete a?.[i++];
  return i;
}
