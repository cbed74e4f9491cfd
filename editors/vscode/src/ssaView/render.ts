// The Show SSA view's content: the control-flow graph as SVG and the listing of the function's
// blocks, φs and instructions, each element carrying the source range it reveals. Pure logic:
// no 'vscode' import; the webview script only inserts this HTML and reports clicks.
import { layoutGraph } from './layout';

export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

/** The answer to ssalens/functionGraph. */
export interface FunctionGraph {
  name: string;
  range: Range;
  analyzed: boolean;
  reason?: string;
  /** Set when the graph is of the last version that parsed: why (a syntax error breaks the function now). */
  kept?: string;
  blocks: GraphBlock[];
  edges: GraphEdge[];
}

export interface GraphBlock {
  id: number;
  label: string;
  loop?: boolean;
  range: Range;
  lines: GraphLine[];
}

export interface GraphLine {
  kind: 'phi' | 'instr' | 'term';
  text: string;
  range: Range;
  tooltip?: string;
}

export interface GraphEdge {
  from: number;
  to: number;
  label?: string;
  back?: boolean;
}

const CHAR = 7.4; // the width of a character at the picture's 12px monospace
const LINE = 16;
const PAD = 6;

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The attributes an element needs to reveal range and to be marked when the cursor is on its lines. */
function rangeAttrs(r: Range): string {
  return `data-range="${r.start.line},${r.start.character},${r.end.line},${r.end.character}"`;
}

/** The text of a block's box in the picture: its name, label and first source line, then its φs. */
export function boxLines(b: GraphBlock): string[] {
  const head = `bb${b.id} ${b.label}${b.loop ? ' ↻' : ''} · L${b.range.start.line + 1}`;
  return [head, ...b.lines.filter((l) => l.kind === 'phi').map((l) => l.text)];
}

/** The picture: a box per block with its φs, an arrow per edge, back edges dashed. */
export function renderSvg(g: FunctionGraph): string {
  const texts = new Map(g.blocks.map((b) => [b.id, boxLines(b)]));
  const layout = layoutGraph(
    g.blocks.map((b) => {
      const lines = texts.get(b.id)!;
      return { id: b.id, width: Math.ceil(Math.max(...lines.map((l) => [...l].length)) * CHAR + 2 * PAD), height: lines.length * LINE + 2 * PAD };
    }),
    g.edges,
  );
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" class="cfg" width="${Math.ceil(layout.width)}" height="${Math.ceil(layout.height)}" viewBox="0 0 ${Math.ceil(layout.width)} ${Math.ceil(layout.height)}">`,
    '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">' +
      '<path d="M0,0 L10,5 L0,10 z" class="arrowhead"/></marker></defs>',
  );
  const labels = new Map(g.edges.map((e) => [`${e.from}>${e.to}`, e.label ?? '']));
  for (const r of layout.routes) {
    const d = r.points.map((p, i) => `${i ? 'L' : 'M'}${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' ');
    out.push(`<path class="edge${r.back ? ' back' : ''}" d="${d}" marker-end="url(#arrow)"/>`);
    const label = labels.get(`${r.from}>${r.to}`);
    if (label && !r.back) {
      const [a, b] = r.points;
      out.push(`<text class="edge-label" x="${((a.x + b.x) / 2 + 4).toFixed(1)}" y="${(a.y + 12).toFixed(1)}">${escapeHtml(label)}</text>`);
    }
  }
  for (const box of layout.boxes) {
    const b = g.blocks.find((x) => x.id === box.id)!;
    out.push(`<g class="block${b.loop ? ' loop' : ''}" data-block="${b.id}" ${rangeAttrs(b.range)}>`);
    out.push(`<title>${escapeHtml(`bb${b.id} (${b.label}), lines ${b.range.start.line + 1}–${b.range.end.line + 1}: click to show the source`)}</title>`);
    out.push(`<rect x="${box.x.toFixed(1)}" y="${box.y.toFixed(1)}" width="${box.width}" height="${box.height}" rx="4"/>`);
    texts.get(b.id)!.forEach((t, i) => {
      out.push(`<text class="${i ? 'phi' : 'head'}" x="${(box.x + PAD).toFixed(1)}" y="${(box.y + PAD + (i + 1) * LINE - 4).toFixed(1)}">${escapeHtml(t)}</text>`);
    });
    out.push('</g>');
  }
  out.push('</svg>');
  return out.join('\n');
}

/** The listing: each block with its predecessors, φs, instructions and terminal, a row each. */
export function renderListing(g: FunctionGraph): string {
  const preds = new Map<number, number[]>();
  for (const e of g.edges) {
    preds.set(e.to, [...(preds.get(e.to) ?? []), e.from]);
  }
  const out: string[] = [];
  for (const b of g.blocks) {
    const from = preds.get(b.id);
    out.push(`<section class="block" id="bb${b.id}" data-block="${b.id}">`);
    out.push(
      `<div class="row head" ${rangeAttrs(b.range)}><span class="ln"></span><span class="code">bb${b.id} (${escapeHtml(b.label)})` +
        `${from ? ` <span class="preds">← ${from.map((p) => `bb${p}`).join(', ')}</span>` : ''}</span></div>`,
    );
    for (const l of b.lines) {
      const title = l.tooltip ? ` title="${escapeHtml(l.tooltip)}"` : '';
      out.push(
        `<div class="row ${l.kind}" ${rangeAttrs(l.range)}${title}><span class="ln">${l.range.start.line + 1}</span><span class="code">${escapeHtml(l.text)}</span></div>`,
      );
    }
    out.push('</section>');
  }
  return out.join('\n');
}

/** The whole content for a graph: a title, then the picture and the listing, or why there is none. */
export function renderView(g: FunctionGraph, source: string): string {
  const title = `<h1>SSA of <code>${escapeHtml(g.name)}</code> <span class="where">${escapeHtml(source)}:${g.range.start.line + 1}</span></h1>`;
  if (!g.analyzed) {
    return `${title}<p class="reason">${escapeHtml(g.name)} is not analyzed: ${escapeHtml(g.reason ?? '')}.</p>`;
  }
  const kept = g.kept ? `<p class="reason">${escapeHtml(g.kept)}</p>` : '';
  return `${title}${kept}<div class="panes"><div class="pane picture">${renderSvg(g)}</div><div class="pane listing">${renderListing(g)}</div></div>`;
}
