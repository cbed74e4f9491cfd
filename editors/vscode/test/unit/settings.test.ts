import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { initializationOptions, needsRestart, readServerSettings, toggledInlayHints } from '../../src/settings';

describe('settings', () => {
  it('defaults every setting to true', () => {
    const s = readServerSettings(() => undefined);
    assert.deepEqual(s, { inlayHints: { versions: true, phis: true }, diagnostics: { uselessAssignment: true } });
  });

  it('reads the keys relative to the ssalens section', () => {
    const values: Record<string, unknown> = {
      'inlayHints.versions': false,
      'inlayHints.phis': true,
      'diagnostics.uselessAssignment': false,
    };
    const asked: string[] = [];
    const s = readServerSettings((k) => {
      asked.push(k);
      return values[k];
    });
    assert.deepEqual(asked.sort(), Object.keys(values).sort());
    assert.deepEqual(s, { inlayHints: { versions: false, phis: true }, diagnostics: { uselessAssignment: false } });
  });

  it('ignores values that are not booleans', () => {
    const s = readServerSettings(() => 'no');
    assert.equal(s.inlayHints.versions, true);
  });

  it('sends the settings as initializationOptions under "ssalens", as didChangeConfiguration does', () => {
    const s = readServerSettings((k) => k !== 'inlayHints.phis');
    const opts = initializationOptions(s);
    assert.deepEqual(opts, {
      ssalens: { inlayHints: { versions: true, phis: false }, diagnostics: { uselessAssignment: true } },
    });
    // It is plain JSON and does not alias the input.
    assert.deepEqual(JSON.parse(JSON.stringify(opts)), opts);
    opts.ssalens.inlayHints.versions = false;
    assert.equal(s.inlayHints.versions, true);
  });

  it('toggles both inlay-hint kinds together', () => {
    const on = readServerSettings(() => true);
    assert.deepEqual(toggledInlayHints(on), { versions: false, phis: false });
    const off = readServerSettings(() => false);
    assert.deepEqual(toggledInlayHints(off), { versions: true, phis: true });
    const mixed = readServerSettings((k) => k === 'inlayHints.phis');
    assert.deepEqual(toggledInlayHints(mixed), { versions: false, phis: false });
  });

  it('restarts only for server settings', () => {
    assert.equal(needsRestart((s) => s === 'ssalens.server.path'), true);
    assert.equal(needsRestart((s) => s === 'ssalens.server.extraEnv'), true);
    assert.equal(needsRestart((s) => s === 'ssalens.inlayHints'), false);
  });
});
