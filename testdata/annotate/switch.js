// switch: case tests in order, fallthrough, default in the middle, break out of the switch.
function describe(v, k) {
  let out = "";
  let weight = 0;
  switch (v) {
    case k:
      out = "key";
    case k + 1:
      weight += 1;
      break;
    default:
      out = "other";
    case 0: {
      let z = weight;
      weight = z + 2;
    }
    case 1:
      if (weight > 2) break;
      out += "!";
  }
  switch (out) {}
  switch (k) { case 1: return out; }
  return out + weight;
}
