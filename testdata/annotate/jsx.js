// JSX: components (capitalized or dotted tags) are variables, HTML tags are not; attributes,
// spreads, children and embedded expressions read variables.
import { Button, UI } from "./ui.js";
function List({ items, selected, onPick }) {
  let title = "Items";
  if (selected) title = <b className="sel">{selected}</b>;
  const div = "not read by <div>";
  const Row = (props) => <li {...props} key={props.id} />;
  return (
    <div id="list" data-count={items.length}>
      <h1>{title}</h1>
      {/* a comment */}
      {items.map((it) => <Row id={it} onClick={() => onPick(it)}>{it}</Row>)}
      <UI.Panel title={<span>{title}</span>} />
      <>
        <Button disabled={!selected} label="pick" />
      </>
    </div>
  );
}
