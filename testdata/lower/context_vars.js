// Context variables are not renamed (LoadContext/StoreContext): one assigned in a nested
// function, and one assigned twice and read in a nested function.
function counter(start) {
  let count = start;
  const inc = () => { count++; };
  let label = "a";
  label = "b";
  const show = () => label;
  inc();
  return [count, label, show];
}
