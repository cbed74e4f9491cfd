// try/catch: the handler merges every state the try body can throw in.
function parse(text) {
  let state = "start", value;
  try {
    state = "parsing";
    value = JSON.parse(text);
    state = "parsed";
  } catch (err) {
    value = err.message;
  }
  try {
    value = value.trim();
  } catch {
    state = "failed";
  }
  try {
    try {
      state = "inner";
      throw state;
    } catch ({ message }) {
      value = message;
      state = "caught";
      throw value;
    }
  } catch (e) {
    return [e, state, value];
  }
  return [state, value];
}
