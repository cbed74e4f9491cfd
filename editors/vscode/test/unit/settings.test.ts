import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';

import { initializationOptions, needsRestart, readServerSettings, SETTING_KEYS, toggledInlayHints } from '../../src/settings';

describe('settings', () => {
  const defaults = {
    inlayHints: { versions: true, phis: true, phiOnly: false, scope: 'file', maxPerLine: 0 },
    diagnostics: { uselessAssignment: true, uselessAssignmentSeverity: 'hint' },
    navigation: { standardRequests: true },
  };

  it('has the defaults the package declares', () => {
    assert.deepEqual(readServerSettings(() => undefined), defaults);
    const pkg = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8'));
    const declared = pkg.contributes.configuration.properties;
    for (const key of Object.values(SETTING_KEYS)) {
      const [group, name] = key.split('.');
      assert.deepEqual(declared[`ssalens.${key}`]?.default, (defaults as Record<string, Record<string, unknown>>)[group][name], key);
    }
  });

  it('reads the keys relative to the ssalens section', () => {
    const values: Record<string, unknown> = {
      'inlayHints.versions': false,
      'inlayHints.phis': true,
      'inlayHints.phiOnly': true,
      'inlayHints.scope': 'variable',
      'inlayHints.maxPerLine': 3,
      'diagnostics.uselessAssignment': false,
      'diagnostics.uselessAssignmentSeverity': 'warning',
      'navigation.standardRequests': false,
    };
    const asked: string[] = [];
    const s = readServerSettings((k) => {
      asked.push(k);
      return values[k];
    });
    assert.deepEqual(asked.sort(), Object.keys(values).sort());
    assert.deepEqual(s, {
      inlayHints: { versions: false, phis: true, phiOnly: true, scope: 'variable', maxPerLine: 3 },
      diagnostics: { uselessAssignment: false, uselessAssignmentSeverity: 'warning' },
      navigation: { standardRequests: false },
    });
  });

  it('gives values of the wrong type or out of range their default', () => {
    const wrong: Record<string, unknown> = { 'inlayHints.scope': 'line', 'inlayHints.maxPerLine': -2, 'diagnostics.uselessAssignmentSeverity': 2 };
    assert.deepEqual(readServerSettings((k) => wrong[k] ?? 'no'), defaults);
    assert.equal(readServerSettings((k) => (k === 'inlayHints.maxPerLine' ? 1.5 : undefined)).inlayHints.maxPerLine, 0);
  });

  it('sends the settings as initializationOptions under "ssalens", as didChangeConfiguration does', () => {
    const s = readServerSettings((k) => (k === 'inlayHints.phis' ? false : undefined));
    const opts = initializationOptions(s);
    assert.deepEqual(opts, { ssalens: { ...defaults, inlayHints: { ...defaults.inlayHints, phis: false } } });
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
