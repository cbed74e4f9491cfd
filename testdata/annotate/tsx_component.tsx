// A React component in TSX: props and state types are erased; hooks, handlers and the
// rendered JSX read versions of the locals, which branches and reassignments split.
import { useEffect, useMemo, useState, type ReactNode } from "react";
import { Spinner } from "./spinner";

interface Item { id: string; title: string; done: boolean }
type Filter = "all" | "open" | "done";
export interface TodoListProps { items: Item[]; filter?: Filter; onToggle(id: string): void; footer?: ReactNode }

export function TodoList({ items, filter = "all", onToggle, footer }: TodoListProps) {
  const [query, setQuery] = useState<string>("");
  const [loading, setLoading] = useState(false);
  let visible: Item[] = items;
  if (filter !== "all") visible = visible.filter((i) => i.done === (filter === "done"));
  const q = query.trim().toLowerCase();
  if (q) visible = visible.filter((i) => i.title.toLowerCase().includes(q));
  const counts = useMemo(() => {
    let open = 0;
    for (const i of items) if (!i.done) open++;
    return { open, done: items.length - open };
  }, [items]);
  useEffect(() => {
    let cancelled = false;
    setLoading(true);
    const t = setTimeout(() => { if (!cancelled) setLoading(false); }, 100);
    return () => { cancelled = true; clearTimeout(t); };
  }, [q]);
  let body: ReactNode = <p className="empty">Nothing to show</p>;
  if (loading) body = <Spinner size={16} />;
  else if (visible.length > 0)
    body = (
      <ul>
        {visible.map((item) => (
          <li key={item.id} className={item.done ? "done" : undefined}>
            <input type="checkbox" checked={item.done} onChange={() => onToggle(item.id)} />
            {item.title}
          </li>
        ))}
      </ul>
    );
  return (
    <section aria-busy={loading}>
      <input value={query} onChange={(e: React.ChangeEvent<HTMLInputElement>) => setQuery(e.target.value)} />
      {body}
      <footer>{counts.open} open, {counts.done} done{footer ?? null}</footer>
    </section>
  );
}
