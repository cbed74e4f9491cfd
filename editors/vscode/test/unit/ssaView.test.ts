import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { Box, layoutGraph } from '../../src/ssaView/layout';
import { escapeHtml, FunctionGraph, renderListing, renderSvg, renderView } from '../../src/ssaView/render';

const size = (id: number, width = 100, height = 30) => ({ id, width, height });

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

describe('layoutGraph', () => {
  it('puts an if in three layers, its branches side by side', () => {
    const l = layoutGraph([size(0), size(1), size(2), size(3)], [
      { from: 0, to: 1 },
      { from: 0, to: 2 },
      { from: 1, to: 3 },
      { from: 2, to: 3 },
    ]);
    assert.deepEqual(l.boxes.map((b) => b.layer), [0, 1, 1, 2]);
    assert.equal(l.boxes[1].y, l.boxes[2].y);
    assert.ok(!overlaps(l.boxes[1], l.boxes[2]), 'the branches do not overlap');
    for (const b of l.boxes) {
      assert.ok(b.x >= 0 && b.x + b.width <= l.width && b.y + b.height <= l.height, `box ${b.id} is inside the picture`);
    }
    // Every edge leaves the bottom of its source and enters the top of its target.
    for (const r of l.routes) {
      const [src, dst] = [l.boxes[r.from], l.boxes[r.to]];
      assert.equal(r.points[0].y, src.y + src.height);
      assert.equal(r.points[r.points.length - 1].y, dst.y);
    }
  });

  it('draws a loop back edge up a lane to the right of every box, crossing none', () => {
    const l = layoutGraph([size(0), size(1), size(2), size(3)], [
      { from: 0, to: 1 },
      { from: 1, to: 2 },
      { from: 1, to: 3 },
      { from: 2, to: 1, back: true },
    ]);
    assert.deepEqual(l.boxes.map((b) => b.layer), [0, 1, 2, 2]);
    const back = l.routes.find((r) => r.back)!;
    assert.deepEqual([back.from, back.to], [2, 1]);
    const lane = back.points[2].x;
    assert.ok(l.boxes.every((b) => b.x + b.width < lane), 'the lane is right of every box');
    assert.ok(lane < l.width);
    const [body, header] = [l.boxes[2], l.boxes[1]];
    assert.deepEqual(back.points[0], { x: body.x + body.width - 8, y: body.y + body.height }, 'it leaves the bottom of the body');
    assert.deepEqual(back.points[5], { x: header.x + header.width - 8, y: header.y }, 'it enters the top of the header');
    for (let i = 0; i + 1 < back.points.length; i++) {
      const [a, b] = [back.points[i], back.points[i + 1]];
      const seg = { x: Math.min(a.x, b.x), y: Math.min(a.y, b.y), width: Math.abs(a.x - b.x), height: Math.abs(a.y - b.y) };
      for (const box of l.boxes) {
        const inside = seg.x < box.x + box.width && box.x < seg.x + seg.width && seg.y < box.y + box.height && box.y < seg.y + seg.height;
        assert.ok(!inside || (i === 0 && box === body) || (i === 4 && box === header), `segment ${i} crosses box ${box.id}`);
      }
    }
    assert.ok(l.height > Math.max(...l.boxes.map((b) => b.y + b.height)) + 16, 'the gap below the last layer is in the picture');
  });

  it('spreads the edges of a box along its side', () => {
    const l = layoutGraph([size(0), size(1), size(2)], [
      { from: 0, to: 1 },
      { from: 0, to: 2 },
    ]);
    const starts = l.routes.map((r) => r.points[0].x);
    assert.notEqual(starts[0], starts[1]);
  });

  it('takes an edge against the block order as a back edge even unmarked', () => {
    const l = layoutGraph([size(0), size(1)], [{ from: 0, to: 1 }, { from: 1, to: 0 }]);
    assert.deepEqual(l.routes.map((r) => r.back), [false, true]);
  });

  it('routes an edge that skips a layer through a point in it, beside the box there', () => {
    const l = layoutGraph([size(0), size(1), size(2)], [
      { from: 0, to: 1 },
      { from: 1, to: 2 },
      { from: 0, to: 2 },
    ]);
    assert.deepEqual(l.boxes.map((b) => b.layer), [0, 1, 2]);
    const skip = l.routes.find((r) => r.from === 0 && r.to === 2)!;
    assert.equal(skip.points.length, 4);
    const mid = l.boxes[1];
    assert.ok(skip.points[1].x < mid.x || skip.points[1].x > mid.x + mid.width, 'the point is not on the box of layer 1');
  });
});

const graph: FunctionGraph = {
  name: 'count',
  range: { start: { line: 0, character: 0 }, end: { line: 6, character: 1 } },
  analyzed: true,
  blocks: [
    {
      id: 0,
      label: 'entry',
      range: { start: { line: 1, character: 2 }, end: { line: 1, character: 11 } },
      lines: [{ kind: 'instr', text: 'StoreLocal i₁ = $0', range: { start: { line: 1, character: 6 }, end: { line: 1, character: 7 } } }],
    },
    {
      id: 1,
      label: 'while',
      loop: true,
      range: { start: { line: 2, character: 8 }, end: { line: 2, character: 15 } },
      lines: [
        { kind: 'phi', text: 'i₂ ← φ(₁,₃)', range: { start: { line: 2, character: 17 }, end: { line: 2, character: 17 } }, tooltip: 'i₁ from bb0 & "entry"' },
        { kind: 'term', text: 'If $3 then bb2 else bb3', range: { start: { line: 2, character: 8 }, end: { line: 2, character: 15 } } },
      ],
    },
    { id: 2, label: 'body', range: { start: { line: 3, character: 4 }, end: { line: 3, character: 8 } }, lines: [] },
    { id: 3, label: 'exit', range: { start: { line: 5, character: 2 }, end: { line: 5, character: 11 } }, lines: [] },
  ],
  edges: [
    { from: 0, to: 1 },
    { from: 1, to: 2, label: 'then' },
    { from: 1, to: 3, label: 'else' },
    { from: 2, to: 1, back: true },
  ],
};

describe('render', () => {
  it('escapes HTML', () => {
    assert.equal(escapeHtml(`<a href="x">'&'</a>`), '&#60;a href=&#34;x&#34;&#62;&#39;&#38;&#39;&#60;/a&#62;');
  });

  it('draws a box per block with its φs, and an edge per edge, the back edge dashed', () => {
    const svg = renderSvg(graph);
    assert.equal(svg.match(/<g class="block/g)?.length, 4);
    assert.match(svg, /<g class="block loop" data-block="1" data-range="2,8,2,15">/);
    assert.match(svg, /<text class="head"[^>]*>bb1 while ↻ · L3<\/text>/);
    assert.match(svg, /<text class="phi"[^>]*>i₂ ← φ\(₁,₃\)<\/text>/);
    assert.equal(svg.match(/<path class="edge"/g)?.length, 3);
    assert.equal(svg.match(/<path class="edge back"/g)?.length, 1);
    assert.match(svg, /<text class="edge-label"[^>]*>then<\/text>/);
  });

  it('lists each line with the source line it links to, escaped', () => {
    const html = renderListing(graph);
    assert.match(html, /<div class="row head" data-range="2,8,2,15"><span class="ln"><\/span><span class="code">bb1 \(while\) <span class="preds">← bb0, bb2<\/span>/);
    assert.match(html, /<div class="row phi" data-range="2,17,2,17" title="i₁ from bb0 &#38; &#34;entry&#34;"><span class="ln">3<\/span><span class="code">i₂ ← φ\(₁,₃\)<\/span><\/div>/);
    assert.match(html, /<div class="row instr" data-range="1,6,1,7"><span class="ln">2<\/span><span class="code">StoreLocal i₁ = \$0<\/span>/);
  });

  it('says why a function has no graph', () => {
    const html = renderView({ ...graph, name: 'g', analyzed: false, reason: 'contains a with statement at 8:17', blocks: [], edges: [] }, 'a.js');
    assert.match(html, /SSA of <code>g<\/code> <span class="where">a\.js:1<\/span>/);
    assert.match(html, /g is not analyzed: contains a with statement at 8:17\./);
    assert.doesNotMatch(html, /<svg/);
  });

  it('says when the graph is of the last version that parsed', () => {
    const kept = 'From the last version that parsed: function f has a syntax error now, at 7:2.';
    assert.match(renderView({ ...graph, kept }, 'a.js'), /<\/h1><p class="reason">From the last version that parsed: function f has a syntax error now, at 7:2\.<\/p><div class="panes">/);
    assert.doesNotMatch(renderView(graph, 'a.js'), /last version that parsed/);
  });
});
