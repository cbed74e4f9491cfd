// JSX: HTML tags are strings (no load), capitalized tags and member tags load their
// component; attributes, spread attributes, expression children, fragments, nested elements.
function View({ items, label }) {
  let title = label;
  if (!title) title = "none";
  const Item = items.Item;
  return (
    <div className="list" title={title} {...items}>
      <Item value={title} />
      <items.Footer>{title}</items.Footer>
      <>
        {items.map((x) => <li key={x}>{x}</li>)}
        {/* comment */}
        text
      </>
    </div>
  );
}
