function continues(n, c) {
  for (let i = 0; i < n; i++) {
    if (c) { i += 2; continue; }
    g(i);
  }
  let j = 0;
  do {
    if (c) { j = 5; continue; }
    j++;
  } while (j < n);
  return j;
}

function rest(first, ...others) {
  return [first, others];
}
const spread = (...xs) => xs;

function methodVars() {
  const o = { m() { var hidden = 1; return hidden; } };
  hidden = 2;
  return hidden;
}

function loopHead() {
  let x = [1];
  { for (let x of x) {} }
  return x;
}

function annexB(flag) {
  const before = g;
  if (flag) function g() { return 1; }
  return [before, g];
}

const self = function fact(n) {
  fact = null;
  return n <= 1 ? 1 : n * fact(n - 1);
};

function indirect(code, v) {
  v = eval?.(code);
  return v;
}

function aliased(a) {
  arguments[0] = 2;
  return a;
}

function strictNoAlias(a) {
  "use strict";
  arguments[0] = 2;
  return a;
}

function classTDZ() {
  const early = new Late();
  class Late {}
  return [early, new Late()];
}

try {
  risky();
}

function loopTDZ(c) {
  while (c()) {
    g(x);
    let x = 1;
  }
  for (let i = 0; i < 3; i++) {
    let acc;
    if (i) acc = i;
    use(acc);
  }
}
