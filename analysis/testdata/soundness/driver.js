'use strict';
// The soundness oracle's driver (see analysis/soundness_test.go and analysis/internal/jsgen).
//
// It reads one job per line on stdin, {"id", "plain", "code"}, and answers one line per job on
// stdout: {"id", "reads", "pairs": [readSite, defSite, count, ...], "error", "fuel", "syntax"}.
// "plain" is only compiled (it must be valid JavaScript); "code", the instrumented program, runs
// in a vm context shared by all jobs, whose helpers log which definition site each read sees.
// Every program is wrapped in a function, so nothing it declares outlives it.
const vm = require('vm');
const readline = require('readline');

// FUEL bounds the reads of one program: calls may nest loops in loops, and although every
// program terminates, a few would take long. A program out of fuel throws at a read, which is
// a point where any read may throw (in its TDZ), so what it logged before is still valid.
const FUEL = 200000;
const fuelError = new Error('out of fuel');

let pairs = new Map();
let reads = 0;
let fuel = 0;
let badShadow = null;

const context = vm.createContext({
  __r(site, def, value) {
    if (--fuel < 0) throw fuelError;
    if (typeof def !== 'number') {
      if (badShadow === null) badShadow = `read site ${site} saw shadow ${String(def)}`;
      return value;
    }
    reads++;
    const key = site * 1048576 + def;
    pairs.set(key, (pairs.get(key) || 0) + 1);
    return value;
  },
  __w(value) { return value; },
  __p(old) { return old; },
});

function message(e) {
  if (e === fuelError) return 'out of fuel';
  if (e !== null && typeof e === 'object' && typeof e.message === 'string') return `${e.name}: ${e.message}`;
  return `thrown ${String(e)}`;
}

function run(job) {
  const out = { id: job.id, reads: 0, pairs: [] };
  const syntax = [];
  try { new vm.Script(job.plain, { filename: 'plain.js' }); } catch (e) { syntax.push('plain: ' + message(e)); }
  let script = null;
  try { script = new vm.Script(job.code, { filename: 'instrumented.js' }); } catch (e) { syntax.push('instrumented: ' + message(e)); }
  if (syntax.length) out.syntax = syntax.join('; ');
  pairs = new Map();
  reads = 0;
  fuel = FUEL;
  badShadow = null;
  if (script) {
    try {
      script.runInContext(context, { timeout: 5000 });
    } catch (e) {
      out.error = message(e);
      if (e === fuelError) out.fuel = true;
    }
  }
  out.reads = reads;
  for (const [key, n] of pairs) {
    out.pairs.push(Math.floor(key / 1048576), key % 1048576, n);
  }
  if (badShadow !== null) out.syntax = (out.syntax ? out.syntax + '; ' : '') + badShadow;
  return out;
}

const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on('line', (line) => {
  if (line.trim() === '') return;
  process.stdout.write(JSON.stringify(run(JSON.parse(line))) + '\n');
});
