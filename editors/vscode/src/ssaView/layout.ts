// A layered drawing of a control-flow graph, in the manner of Sugiyama et al., small enough to
// need no Graphviz: blocks go in layers by the longest path from the entry along forward edges,
// an edge that spans layers passes through a dummy point in each, a few barycenter sweeps
// order the layers to uncross edges, and back edges run up a lane to the right of everything,
// crossing no box.
// Pure logic: no 'vscode' import.

export interface Size {
  id: number;
  width: number;
  height: number;
}

export interface Edge {
  from: number;
  to: number;
  /** A loop's back edge. Edges against the given order of the blocks are drawn as back edges too. */
  back?: boolean;
}

export interface Point {
  x: number;
  y: number;
}

export interface Box extends Size {
  x: number;
  y: number;
  layer: number;
}

export interface Route {
  from: number;
  to: number;
  back: boolean;
  points: Point[];
}

export interface Layout {
  width: number;
  height: number;
  boxes: Box[];
  routes: Route[];
}

export const MARGIN = 16;
const LAYER_GAP = 48;
const NODE_GAP = 28;
const LANE_GAP = 12;
const SWEEPS = 4;

interface Slot {
  id: number; // a block id, or a dummy's negative id
  width: number;
  height: number;
  layer: number;
  x: number;
  up: Slot[]; // neighbours in the layer above
  down: Slot[]; // neighbours in the layer below
}

/**
 * Lays out blocks, given in reverse postorder with the entry first (the order that makes every
 * edge that is not a back edge go forward), and the edges between them.
 */
export function layoutGraph(blocks: readonly Size[], edges: readonly Edge[]): Layout {
  const index = new Map(blocks.map((b, i) => [b.id, i]));
  const isForward = (e: Edge) => !e.back && index.get(e.to)! > index.get(e.from)!;
  const slots = new Map<number, Slot>();
  for (const b of blocks) {
    slots.set(b.id, { id: b.id, width: b.width, height: b.height, layer: 0, x: 0, up: [], down: [] });
  }
  for (const b of blocks) {
    for (const e of edges) {
      if (e.to === b.id && isForward(e)) {
        slots.get(b.id)!.layer = Math.max(slots.get(b.id)!.layer, slots.get(e.from)!.layer + 1);
      }
    }
  }

  // Dummies: a chain of points for every forward edge that spans more than one layer.
  const chains = new Map<Edge, Slot[]>();
  let dummy = -1;
  for (const e of edges) {
    if (!isForward(e)) {
      continue;
    }
    const chain = [slots.get(e.from)!];
    for (let l = chain[0].layer + 1; l < slots.get(e.to)!.layer; l++) {
      const d: Slot = { id: dummy--, width: 0, height: 0, layer: l, x: 0, up: [], down: [] };
      slots.set(d.id, d);
      chain.push(d);
    }
    chain.push(slots.get(e.to)!);
    for (let i = 0; i + 1 < chain.length; i++) {
      chain[i].down.push(chain[i + 1]);
      chain[i + 1].up.push(chain[i]);
    }
    chains.set(e, chain);
  }

  const layers: Slot[][] = [];
  for (const s of slots.values()) {
    (layers[s.layer] ??= []).push(s);
  }
  orderLayers(layers);
  const heights = layers.map((l) => Math.max(0, ...l.map((s) => s.height)));
  const tops: number[] = [];
  let y = MARGIN;
  for (const h of heights) {
    tops.push(y);
    y += h + LAYER_GAP;
  }
  placeLayers(layers);

  const right = Math.max(MARGIN, ...[...slots.values()].map((s) => s.x + s.width));
  // Ports: the edges leaving a box share its bottom, those entering it its top, in the order of
  // where they go to or come from, so that no two start or end at one point.
  const ports = (s: Slot, ends: Slot[]) => {
    const sorted = [...ends].sort((a, b) => a.x + a.width / 2 - (b.x + b.width / 2));
    return (end: Slot) => s.x + (s.width * (sorted.indexOf(end) + 1)) / (ends.length + 1);
  };
  const outPort = new Map([...slots.values()].map((s) => [s, ports(s, s.down)]));
  const inPort = new Map([...slots.values()].map((s) => [s, ports(s, s.up)]));
  const routes: Route[] = [];
  let lane = right + LANE_GAP;
  for (const e of edges) {
    const chain = chains.get(e);
    if (chain) {
      const [src, dst] = [chain[0], chain[chain.length - 1]];
      const points = [{ x: outPort.get(src)!(chain[1]), y: tops[src.layer] + src.height }];
      for (const d of chain.slice(1, -1)) {
        points.push({ x: d.x, y: tops[d.layer] - LAYER_GAP / 2 }, { x: d.x, y: tops[d.layer] + heights[d.layer] + LAYER_GAP / 2 });
      }
      points.push({ x: inPort.get(dst)!(chain[chain.length - 2]), y: tops[dst.layer] });
      routes.push({ from: e.from, to: e.to, back: false, points });
      continue;
    }
    // A back edge leaves the bottom of its source near its right end, runs right in the gap
    // below the source's layer to a lane of its own, up that lane to the gap above the
    // target's layer, and enters the target's top near its right end: it crosses no box.
    const src = slots.get(e.from)!;
    const dst = slots.get(e.to)!;
    const below = tops[src.layer] + heights[src.layer] + LAYER_GAP / 3;
    const above = tops[dst.layer] - LAYER_GAP / 3;
    const out = { x: src.x + src.width - 8, y: tops[src.layer] + src.height };
    const into = { x: dst.x + dst.width - 8, y: tops[dst.layer] };
    routes.push({
      from: e.from,
      to: e.to,
      back: true,
      points: [out, { x: out.x, y: below }, { x: lane, y: below }, { x: lane, y: above }, { x: into.x, y: above }, into],
    });
    lane += LANE_GAP;
  }

  const boxes: Box[] = blocks.map((b) => {
    const s = slots.get(b.id)!;
    return { ...b, x: s.x, y: tops[s.layer], layer: s.layer };
  });
  return { width: lane - LANE_GAP + MARGIN, height: y - LAYER_GAP + LAYER_GAP / 3 + MARGIN, boxes, routes };
}

/** Orders each layer by the mean position of the neighbours, sweeping down and up. */
function orderLayers(layers: Slot[][]): void {
  const position = new Map<Slot, number>();
  const remember = () => layers.forEach((l) => l.forEach((s, i) => position.set(s, i)));
  remember();
  const sweep = (l: Slot[], neighbours: (s: Slot) => Slot[]) => {
    const key = new Map(l.map((s, i) => {
      const ns = neighbours(s);
      return [s, ns.length ? ns.reduce((sum, n) => sum + position.get(n)!, 0) / ns.length : i];
    }));
    l.sort((a, b) => key.get(a)! - key.get(b)! || position.get(a)! - position.get(b)!);
    l.forEach((s, i) => position.set(s, i));
  };
  for (let i = 0; i < SWEEPS; i++) {
    for (let l = 1; l < layers.length; l++) {
      sweep(layers[l], (s) => s.up);
    }
    for (let l = layers.length - 2; l >= 0; l--) {
      sweep(layers[l], (s) => s.down);
    }
  }
}

/**
 * Places the slots of each layer left to right: each as near the mean centre of its neighbours
 * above as the slots to its left allow, the first layer packed from the margin.
 */
function placeLayers(layers: Slot[][]): void {
  for (const [l, layer] of layers.entries()) {
    let next = MARGIN;
    for (const s of layer) {
      let want = next;
      if (l > 0 && s.up.length) {
        const mean = s.up.reduce((sum, n) => sum + n.x + n.width / 2, 0) / s.up.length;
        want = Math.max(next, mean - s.width / 2);
      }
      s.x = want;
      next = s.x + s.width + NODE_GAP;
    }
  }
}
