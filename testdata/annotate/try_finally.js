// finally: one copy of the block merges every way in (normal, throw, return, break),
// then dispatches to where each was going.
function withFinally(items) {
  let log = "begin";
  try {
    log = "try";
    if (items.length === 0) return log;
  } finally {
    log += "!";
  }
  for (const item of items) {
    try {
      if (item === null) break;
      log = item;
    } catch (e) {
      log = "error";
      continue;
    } finally {
      log = log + ";";
    }
  }
  return log;
}
function overrides(flag) {
  let r = 1;
  try {
    r = 2;
    return r;
  } finally {
    if (flag) return r * 10;
  }
}
