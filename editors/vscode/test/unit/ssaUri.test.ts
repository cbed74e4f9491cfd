import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { decodeSsaUri, encodeSsaUri, shiftPosition, SSA_SCHEME } from '../../src/ssaUri';

describe('Show SSA URIs', () => {
  it('round-trips a file URI and a position', () => {
    const t = { source: 'file:///home/u/src/app.js', line: 11, character: 4 };
    const parts = encodeSsaUri(t);
    assert.deepEqual(parts, { scheme: SSA_SCHEME, path: '/app.js@12:5.ssa', query: encodeURIComponent(t.source) });
    assert.deepEqual(decodeSsaUri(parts), t);
  });

  it('round-trips URIs with spaces, percent signs, non-ASCII and query characters', () => {
    for (const source of [
      'file:///home/u/my%20project/x.js',
      'file:///c%3A/Users/%C3%A9/%CF%86.jsx',
      'untitled:Untitled-1',
      'file:///a/b.js?x=1#frag',
    ]) {
      const t = { source, line: 0, character: 0 };
      assert.deepEqual(decodeSsaUri(encodeSsaUri(t)), t, source);
    }
  });

  it('names the tab after the source file', () => {
    assert.equal(encodeSsaUri({ source: 'file:///a/my%20file.js', line: 2, character: 0 }).path, '/my file.js@3:1.ssa');
    assert.equal(encodeSsaUri({ source: 'untitled:Untitled-1', line: 0, character: 0 }).path, '/Untitled-1@1:1.ssa');
  });

  it('rejects other schemes and malformed paths', () => {
    const good = encodeSsaUri({ source: 'file:///a.js', line: 0, character: 0 });
    assert.equal(decodeSsaUri({ ...good, scheme: 'file' }), undefined);
    assert.equal(decodeSsaUri({ ...good, path: '/a.js.ssa' }), undefined);
    assert.equal(decodeSsaUri({ ...good, path: '/a.js@0:1.ssa' }), undefined);
    assert.equal(decodeSsaUri({ ...good, query: '' }), undefined);
    assert.equal(decodeSsaUri({ ...good, query: '%E0%A4%A' }), undefined);
  });
});

describe('shiftPosition', () => {
  const at = (line: number, character: number) => ({ line, character });
  const change = (sl: number, sc: number, el: number, ec: number, text: string) => ({
    range: { start: at(sl, sc), end: at(el, ec) },
    text,
  });

  it('ignores edits after the position', () => {
    assert.deepEqual(shiftPosition(at(3, 4), [change(5, 0, 5, 0, 'x\n')]), at(3, 4));
    assert.deepEqual(shiftPosition(at(3, 4), [change(3, 6, 3, 7, '')]), at(3, 4));
  });

  it('moves down with lines inserted above and up with lines removed', () => {
    assert.deepEqual(shiftPosition(at(3, 4), [change(0, 0, 0, 0, 'a\nb\n')]), at(5, 4));
    assert.deepEqual(shiftPosition(at(3, 4), [change(0, 0, 2, 0, '')]), at(1, 4));
  });

  it('moves along its line with text inserted before it', () => {
    assert.deepEqual(shiftPosition(at(3, 4), [change(3, 0, 3, 0, 'ab')]), at(3, 6));
    assert.deepEqual(shiftPosition(at(3, 4), [change(3, 1, 3, 2, 'x\nyz')]), at(4, 4));
  });

  it('moves to the start of a range that replaced it', () => {
    assert.deepEqual(shiftPosition(at(3, 4), [change(2, 1, 4, 0, 'q')]), at(2, 1));
  });

  it('applies changes in order', () => {
    assert.deepEqual(shiftPosition(at(3, 4), [change(0, 0, 0, 0, '\n'), change(0, 0, 0, 0, '\n')]), at(5, 4));
  });
});
