import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';

import { binaryName, expandPath, findOnPath, resolveServerPath } from '../../src/serverPath';

/**
 * A fake file system: the executable files, and directories (ending in `/`) that hold nothing
 * executable. A file's parent directories exist too.
 */
function fakeFs(...entries: string[]) {
  const files = entries.filter((e) => !e.endsWith('/'));
  const dirs = entries.filter((e) => e.endsWith('/')).map((d) => d.slice(0, -1));
  return {
    isExecutable: (f: string) => files.includes(f),
    isDirectory: (d: string) => dirs.includes(d) || files.some((f) => f.startsWith(d + '/')),
  };
}
const GO_INSTALL = /go install github\.com\/ssalens\/ssalens\/cmd\/ssalens@latest/;

describe('resolveServerPath', () => {
  const base = { extensionPath: '/ext', platform: 'linux' as const, homeDir: '/home/u' };

  it('uses the setting first', () => {
    const r = resolveServerPath({
      ...base,
      configured: '/opt/ssalens',
      envPath: '/usr/bin',
      ...fakeFs('/opt/ssalens', '/usr/bin/ssalens', '/ext/bin/ssalens'),
    });
    assert.deepEqual(r, { ok: true, path: '/opt/ssalens', source: 'setting' });
  });

  it('expands ~ in the setting', () => {
    const r = resolveServerPath({ ...base, configured: '~/go/bin/ssalens', envPath: '', ...fakeFs('/home/u/go/bin/ssalens') });
    assert.deepEqual(r, { ok: true, path: '/home/u/go/bin/ssalens', source: 'setting' });
  });

  it('resolves a relative setting against the workspace folder', () => {
    const r = resolveServerPath({
      ...base,
      configured: './tools/ssalens',
      envPath: '',
      workspaceFolder: '/ws',
      ...fakeFs('/ws/tools/ssalens'),
    });
    assert.deepEqual(r, { ok: true, path: '/ws/tools/ssalens', source: 'setting' });
  });

  it('looks a bare name in the setting up on PATH', () => {
    const r = resolveServerPath({ ...base, configured: 'ssalens-dev', envPath: '/a:/b', ...fakeFs('/b/ssalens-dev') });
    assert.deepEqual(r, { ok: true, path: '/b/ssalens-dev', source: 'setting' });
  });

  it('fails with a message naming the setting when the setting points nowhere', () => {
    const r = resolveServerPath({ ...base, configured: '/nope/ssalens', envPath: '/usr/bin', ...fakeFs('/usr/bin/ssalens') });
    assert.equal(r.ok, false);
    assert.match((r as { message: string }).message, /"ssalens\.server\.path" is set to "\/nope\/ssalens"/);
  });

  it('falls back to PATH, in PATH order, skipping empty entries', () => {
    const r = resolveServerPath({
      ...base,
      configured: null,
      envPath: ':/a:/b:/c',
      ...fakeFs('/b/ssalens', '/c/ssalens', '/ext/bin/ssalens'),
    });
    assert.deepEqual(r, { ok: true, path: '/b/ssalens', source: 'PATH' });
  });

  it('treats an empty or blank setting as unset', () => {
    for (const configured of ['', '   ', undefined]) {
      const r = resolveServerPath({ ...base, configured, envPath: '/a', ...fakeFs('/a/ssalens') });
      assert.deepEqual(r, { ok: true, path: '/a/ssalens', source: 'PATH' });
    }
  });

  it('falls back to the bundled binary', () => {
    const r = resolveServerPath({ ...base, configured: null, envPath: '/a:/b', ...fakeFs('/ext/bin/ssalens') });
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

  it('says the bundled server is missing, with the fix, when a platform package lost it', () => {
    const r = resolveServerPath({ ...base, configured: null, envPath: '/a', ...fakeFs('/ext/bin/') });
    assert.equal(r.ok, false);
    const msg = (r as { message: string }).message;
    assert.match(msg, /cannot find the ssalens server: "ssalens\.server\.path" is not set and there is no `ssalens` on PATH\./);
    assert.match(msg, /The server bundled with the extension, \/ext\/bin\/ssalens, is missing or cannot be run: reinstall the extension\./);
    assert.match(msg, GO_INSTALL);
    assert.doesNotMatch(msg, /universal/);
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
      // No bin/: the universal package.
      let r = resolveServerPath({ configured: null, envPath: '', extensionPath: dir });
      assert.match((r as { message: string }).message, /universal build/);
      fs.mkdirSync(path.join(dir, 'bin', 'ssalens'), { recursive: true }); // a directory is no binary
      r = resolveServerPath({ configured: null, envPath: '', extensionPath: dir });
      assert.match((r as { message: string }).message, /is missing or cannot be run/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('resolveServerPath in the universal package (no bin/)', () => {
  const base = { extensionPath: '/ext', platform: 'linux' as const, homeDir: '/home/u' };

  it('uses ssalens on PATH', () => {
    const r = resolveServerPath({ ...base, configured: null, envPath: '/usr/bin:/home/u/go/bin', ...fakeFs('/home/u/go/bin/ssalens') });
    assert.deepEqual(r, { ok: true, path: '/home/u/go/bin/ssalens', source: 'PATH' });
  });

  it('uses the setting', () => {
    const r = resolveServerPath({ ...base, configured: '~/go/bin/ssalens', envPath: '/usr/bin', ...fakeFs('/home/u/go/bin/ssalens') });
    assert.deepEqual(r, { ok: true, path: '/home/u/go/bin/ssalens', source: 'setting' });
  });

  it('says it bundles no server, and how to install one, when neither is found', () => {
    const r = resolveServerPath({ ...base, configured: null, envPath: '/usr/bin', ...fakeFs('/usr/bin/node') });
    assert.equal(r.ok, false);
    assert.equal(
      (r as { message: string }).message,
      'ssalens: cannot find the ssalens server: "ssalens.server.path" is not set and there is no `ssalens` on PATH. ' +
        'This universal build of the extension bundles no server (the builds for linux-x64, linux-arm64 and ' +
        'win32-x64 do). Install it with `go install github.com/ssalens/ssalens/cmd/ssalens@latest` (and make ' +
        'sure $(go env GOPATH)/bin is on PATH), or set "ssalens.server.path" to the binary.',
    );
  });

  it('names ssalens.exe on Windows', () => {
    const r = resolveServerPath({ configured: null, envPath: 'C:\\x', extensionPath: 'C:\\ext', platform: 'win32', ...fakeFs() });
    assert.equal(r.ok, false);
    const msg = (r as { message: string }).message;
    assert.match(msg, /no `ssalens\.exe` on PATH\. This universal build/);
    assert.match(msg, GO_INSTALL);
  });
});

describe('expandPath', () => {
  it('leaves absolute paths and bare names alone', () => {
    assert.equal(expandPath('/x/y', '/h', '/ws'), '/x/y');
    assert.equal(expandPath('ssalens', '/h', '/ws'), 'ssalens');
    assert.equal(expandPath('~', '/h'), '/h');
  });
});
