// A catch parameter is defined at the start of its clause and shadows outer names; a var
// declared in a catch block belongs to the function.
function handle(err, retry) {
  let attempts = 0;
  try {
    attempts++;
    retry();
  } catch (err) {
    var last = err;
    err = String(err);
    attempts += err.length;
  }
  try {
    retry(attempts);
  } catch ([first, second = first]) {
    last = second;
  }
  return [err, last, attempts];
}
