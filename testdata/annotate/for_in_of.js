// for-in, for-of and for await: the header φ sits at the iteration binding.
async function iterate(obj, list, stream) {
  let last = null, count = 0;
  for (const key in obj) {
    last = key;
  }
  for (let [k, v] of Object.entries(obj)) {
    if (v) continue;
    k = k + "!";
    count += k.length;
  }
  var item;
  for (item of list) count++;
  for (var { id, tag = id } of list) last = tag;
  for await (const chunk of stream) {
    last = chunk;
  }
  return [last, count, item, id];
}
