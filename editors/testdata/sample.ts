// A TypeScript fixture for the editor tests: the types are erased, the enum is a value.
enum Step { One = 1, Two }
interface Counter { n: number }

function pick(c: boolean): number {
  let x: number = Step.One;
  if (c) {
    x = Step.Two as number;
  }
  return x;
}

function count(counter: Counter, n: number): number {
  let i = 0;
  while (i < n) {
    i++;
  }
  return counter.n + i!;
}
