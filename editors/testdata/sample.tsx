// A TSX fixture for the editor tests: a component whose label merges two versions.
type Props = { done: boolean; title: string };

export function Item({ done, title }: Props) {
  let label: string = title;
  if (done) {
    label = `${title} (done)`;
  }
  return <li className={done ? "done" : undefined}>{label}</li>;
}
