// TSX: a generic arrow needs <T,> (<T> would open an element), there is no <T>x assertion
// (as is used instead), and a component's type arguments (<Select<Option> ...>) are erased.
import { Select } from "./select";
type Option = { value: string; label: string };
const first = <T,>(xs: T[], fallback: T): T => {
  let v = xs[0];
  if (v === undefined) v = fallback;
  return v;
};
export function Picker(props: { options: Option[]; current?: string }) {
  let selected = props.current as string | undefined;
  if (!selected) selected = first(props.options, { value: "", label: "" }).value;
  const label = props.options.find((o) => o.value === selected)!.label;
  return <Select<Option> options={props.options} value={selected!} label={label satisfies string} />;
}
