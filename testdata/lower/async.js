// async functions, async arrows and await.
async function load(url, retries) {
  let r = await fetch(url);
  if (!r.ok) r = await fetch(url, retries);
  const json = async () => await r.json();
  return json();
}
const quick = async (x) => await x;
