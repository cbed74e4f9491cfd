// break and continue leaving a try through its finally: the finally block is one copy that
// merges every way in and dispatches (Completion switch) to where each was going.
function jumps(list) {
  let n = 0;
  for (const x of list) {
    try {
      if (x) continue;
      n = 1;
      if (n) break;
    } finally {
      n++;
    }
  }
  return n;
}
