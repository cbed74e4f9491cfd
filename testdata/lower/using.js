// using and await using declarations bind like const.
async function res(open) {
  using a = open();
  await using b = open(a);
  {
    using c = open(b);
    use(c);
  }
  return [a, b];
}
