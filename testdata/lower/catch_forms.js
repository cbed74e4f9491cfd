// catch without a parameter, and catch with object and array destructuring.
function catches(f) {
  let msg = "";
  try { f(); } catch { msg = "failed"; }
  try { f(); } catch ({ message, code = 0 }) { msg = message + code; }
  try { f(); } catch ([first, ...others]) { msg = first; }
  return msg;
}
