// async functions, await, generators, yield and yield*: values flow like any expression.
async function load(urls) {
  let done = 0, last;
  for (const url of urls) {
    last = await fetch(url);
    done++;
  }
  const all = await Promise.all(urls.map(async (u) => (await fetch(u)).ok));
  return [done, last, all];
}
function* counter(limit) {
  let i = 0;
  while (i < limit) {
    const reset = yield i;
    i = reset ? 0 : i + 1;
  }
  yield* [i, limit];
  return i;
}
async function* stream(source) {
  let n = 0;
  for await (const chunk of source) yield (n += chunk.length);
  return n;
}
