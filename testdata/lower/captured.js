// A captured variable with a single definition stays a normal SSA value: the outer function
// renames it, the nested function reads it as LoadCapture, also through two levels.
function outer(p) {
  const k = p * 2;
  let once = k + 1;
  return () => {
    const inner = () => once + k;
    return inner() + p;
  };
}
