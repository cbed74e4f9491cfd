// Literals: numbers, strings, regexes, booleans, null, undefined, long literals (truncated);
// template strings with substitutions; tagged templates (a call of the tag).
function lits(name, tag) {
  let s = `hello ${name}, ${1 + 2}!`;
  s = tag`a${s}b${name}`;
  const plain = `no substitutions`;
  const all = [1, 0x1f, 1n, 1_000, "str", 'q', /re+/g, true, false, null, undefined];
  const long = "a string literal that is longer than forty characters";
  return [s, plain, all, long];
}
