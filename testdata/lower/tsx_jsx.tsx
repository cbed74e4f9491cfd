// TSX: a generic arrow, and a component with type arguments, which are erased.
const id = <X,>(x: X) => x;
function View(props: { v: string }) {
  return <Box<string> value={id(props.v)!} />;
}
