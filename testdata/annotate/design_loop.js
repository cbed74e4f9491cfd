function count(n) {
  let i = 0;
  while (i < n) {
    i = i + 1;
  }
  return i;
}
