// new.target, import.meta and dynamic import() are intrinsics.
export function meta(path) {
  const t = new.target;
  let url = import.meta.url;
  url = import(path);
  return [t, url];
}
