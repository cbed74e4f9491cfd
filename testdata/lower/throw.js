// throw outside a try ends the function; inside a try it goes to the handler.
function th(c) {
  let x = 1;
  if (c) throw new Error("no");
  try {
    x = 2;
    throw x;
  } catch (e) {
    x = e;
  }
  return x;
}
