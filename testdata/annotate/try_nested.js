// Jumps out of finally blocks, and a return that passes through two finally blocks.
function breakInFinally(xs) {
  let n = 0;
  while (n < xs.length) {
    try {
      n++;
    } finally {
      if (xs[n]) break;
    }
  }
  return n;
}
function twoFinallys(a) {
  let step = 0;
  try {
    try {
      step = 1;
      if (a) return step;
    } finally {
      step = 2;
    }
    step = 3;
  } finally {
    a = step;
  }
  return a;
}
