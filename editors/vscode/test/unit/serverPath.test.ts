import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';

import { binaryName, expandPath, findOnPath, resolveServerPath } from '../../src/serverPath';

/** A fake file system: the set of executable files. */
const exe = (...files: string[]) => (f: string) => files.includes(f);

describe('resolveServerPath', () => {
  const base = { extensionPath: '/ext', platform: 'linux' as const, homeDir: '/home/u' };

  it('uses the setting first', () => {
    const r = resolveServerPath({
      ...base,
      configured: '/opt/ssalens',
      envPath: '/usr/bin',
      isExecutable: exe('/opt/ssalens', '/usr/bin/ssalens', '/ext/bin/ssalens'),
    });
    assert.deepEqual(r, { ok: true, path: '/opt/ssalens', source: 'setting' });
  });

  it('expands ~ in the setting', () => {
    const r = resolveServerPath({ ...base, configured: '~/go/bin/ssalens', envPath: '', isExecutable: exe('/home/u/go/bin/ssalens') });
    assert.deepEqual(r, { ok: true, path: '/home/u/go/bin/ssalens', source: 'setting' });
  });

  it('resolves a relative setting against the workspace folder', () => {
    const r = resolveServerPath({
      ...base,
      configured: './tools/ssalens',
      envPath: '',
      workspaceFolder: '/ws',
      isExecutable: exe('/ws/tools/ssalens'),
    });
    assert.deepEqual(r, { ok: true, path: '/ws/tools/ssalens', source: 'setting' });
  });

  it('looks a bare name in the setting up on PATH', () => {
    const r = resolveServerPath({ ...base, configured: 'ssalens-dev', envPath: '/a:/b', isExecutable: exe('/b/ssalens-dev') });
    assert.deepEqual(r, { ok: true, path: '/b/ssalens-dev', source: 'setting' });
  });

  it('fails with a message naming the setting when the setting points nowhere', () => {
    const r = resolveServerPath({ ...base, configured: '/nope/ssalens', envPath: '/usr/bin', isExecutable: exe('/usr/bin/ssalens') });
    assert.equal(r.ok, false);
    assert.match((r as { message: string }).message, /"ssalens\.server\.path" is set to "\/nope\/ssalens"/);
  });

  it('falls back to PATH, in PATH order, skipping empty entries', () => {
    const r = resolveServerPath({
      ...base,
      configured: null,
      envPath: ':/a:/b:/c',
      isExecutable: exe('/b/ssalens', '/c/ssalens', '/ext/bin/ssalens'),
    });
    assert.deepEqual(r, { ok: true, path: '/b/ssalens', source: 'PATH' });
  });

  it('treats an empty or blank setting as unset', () => {
    for (const configured of ['', '   ', undefined]) {
      const r = resolveServerPath({ ...base, configured, envPath: '/a', isExecutable: exe('/a/ssalens') });
      assert.deepEqual(r, { ok: true, path: '/a/ssalens', source: 'PATH' });
    }
  });

  it('falls back to the bundled binary', () => {
    const r = resolveServerPath({ ...base, configured: null, envPath: '/a:/b', isExecutable: exe('/ext/bin/ssalens') });
    assert.deepEqual(r, { ok: true, path: '/ext/bin/ssalens', source: 'bundled' });
  });

  it('uses ssalens.exe and ; on Windows', () => {
    assert.equal(binaryName('win32'), 'ssalens.exe');
    const r = resolveServerPath({
      configured: null,
      envPath: 'C:\\x;C:\\y',
      extensionPath: 'C:\\ext',
      platform: 'win32',
      isExecutable: (f) => f.endsWith('ssalens.exe') && f.includes('y'),
    });
    assert.equal(r.ok && r.source, 'PATH');
  });

  it('explains the fix when nothing is found', () => {
    const r = resolveServerPath({ ...base, configured: null, envPath: '/a', isExecutable: exe() });
    assert.equal(r.ok, false);
    const msg = (r as { message: string }).message;
    assert.match(msg, /cannot find the ssalens server/);
    assert.match(msg, /go install github\.com\/ssalens\/ssalens\/cmd\/ssalens@latest/);
    assert.match(msg, /ssalens\.server\.path/);
  });

  it('checks real files for existence and the executable bit', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ssalens-path-'));
    try {
      const plain = path.join(dir, 'ssalens');
      fs.writeFileSync(plain, '#!/bin/sh\n');
      fs.chmodSync(plain, 0o644);
      assert.equal(findOnPath('ssalens', dir), undefined);
      fs.chmodSync(plain, 0o755);
      assert.equal(findOnPath('ssalens', dir), plain);
      fs.mkdirSync(path.join(dir, 'bin', 'ssalens'), { recursive: true }); // a directory is no binary
      const r = resolveServerPath({ configured: null, envPath: '', extensionPath: dir });
      assert.equal(r.ok, false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('expandPath', () => {
  it('leaves absolute paths and bare names alone', () => {
    assert.equal(expandPath('/x/y', '/h', '/ws'), '/x/y');
    assert.equal(expandPath('ssalens', '/h', '/ws'), 'ssalens');
    assert.equal(expandPath('~', '/h'), '/h');
  });
});
