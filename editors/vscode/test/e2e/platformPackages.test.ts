// End-to-end for the packages of scripts/package-all.sh, installed into a real VS Code
// (code-server) with no `ssalens.server.path` setting and no `ssalens` on PATH:
//   - the package for this machine (ssalens-linux-x64.vsix here) runs the server bundled in it;
//   - the universal package, which bundles none, says so with the `go install` line, and runs
//     `ssalens` from PATH once there is one.
//
// Inputs (environment; harness.ts reads more):
//   SSALENS_VSIX_DIR  where the packages are (default: editors/vscode)
//   SSALENS_BIN       a server for this machine, put on PATH for the universal package (default: bin/ssalens)
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';

import { root, Session, waitFor } from './harness';

const vsixDir = process.env.SSALENS_VSIX_DIR ?? root;
const hostTarget = `${process.platform}-${process.arch}`;
const hostVsix = path.join(vsixDir, `ssalens-${hostTarget}.vsix`);
const universalVsix = path.join(vsixDir, 'ssalens-universal.vsix');
const source = '.editor-group-container.active .editor-instance';

/** PATH without the folders that hold an `ssalens`. */
function pathWithoutSsalens(): string {
  return (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter((dir) => dir && !fs.existsSync(path.join(dir, 'ssalens')))
    .join(path.delimiter);
}

/** The command lines of the running processes whose program is `program`. */
function processesOf(program: string): string[][] {
  const found: string[][] = [];
  for (const pid of fs.readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    let argv: string[];
    try {
      argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    } catch {
      continue; // the process has exited
    }
    if (argv[0] === program) {
      found.push(argv);
    }
  }
  return found;
}

/** Waits for the φ inlay hints of sample.js, which only a running server gives. */
async function waitForHints(session: Session): Promise<void> {
  await waitFor(
    'the φ inlay hints',
    async () => (await session.editorLines(source)).some((l) => l.includes('x₃ ← φ(₁,₂)')),
    90000,
  ).catch((err) => {
    throw new Error(`${err.message}\ncode-server log:\n${session.log.slice(-4000)}`);
  });
}

/** One code-server per scenario, with a screenshot when one of its tests fails. */
function scenario(vsix: string, envPath: () => string): () => Session {
  let session: Session | undefined;
  before(async () => {
    assert.ok(fs.existsSync(vsix), `${vsix} exists (run scripts/package-all.sh)`);
    session = await Session.open({ vsix, envPath: envPath() });
  });
  afterEach(async (t) => {
    if ((t as unknown as { passed?: boolean }).passed === false && session) {
      await session.screenshot(`vscode-e2e-failure-${path.basename(vsix, '.vsix')}.png`);
    }
  });
  after(async () => {
    await session?.close();
  });
  return () => session!;
}

describe('the per-platform packages in code-server', { timeout: 10 * 60 * 1000 }, () => {
  describe(`ssalens-${hostTarget}.vsix, nothing configured`, () => {
    const session = scenario(hostVsix, pathWithoutSsalens);

    it('runs the server bundled in the package', async () => {
      await waitForHints(session());
      const bundled = path.join(session().extensionsDir, 'ssalens.ssalens-0.1.0', 'bin', 'ssalens');
      assert.deepEqual(processesOf(bundled), [[bundled, 'serve']]);
    });
  });

  describe('ssalens-universal.vsix, nothing configured and no ssalens on PATH', () => {
    const session = scenario(universalVsix, pathWithoutSsalens);

    it('says it bundles no server, and how to install one', async () => {
      const page = session().page;
      const toast = page.locator('.notification-toast', { hasText: 'cannot find the ssalens server' });
      await toast.waitFor({ state: 'visible', timeout: 60000 });
      const text = (await toast.locator('.notification-list-item-message').textContent()) ?? '';
      assert.match(text, /This universal build of the extension bundles no server/);
      assert.match(text, /go install github\.com\/ssalens\/ssalens\/cmd\/ssalens@latest/);
      assert.match(text, /ssalens\.server\.path/);
      await toast.getByRole('button', { name: 'Open Settings' }).waitFor();
      assert.equal(fs.existsSync(path.join(session().extensionsDir, 'ssalens.ssalens-0.1.0', 'bin')), false, 'no bin/ installed');
    });
  });

  describe('ssalens-universal.vsix with ssalens on PATH', () => {
    let binDir: string;
    const session = scenario(universalVsix, () => {
      const server = path.resolve(process.env.SSALENS_BIN ?? path.join(root, 'bin', 'ssalens'));
      assert.ok(fs.existsSync(server), `${server} exists (run npm run package)`);
      binDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ssalens-path-'));
      fs.symlinkSync(server, path.join(binDir, 'ssalens'));
      return [binDir, pathWithoutSsalens()].join(path.delimiter);
    });
    after(() => fs.rmSync(binDir, { recursive: true, force: true }));

    it('runs ssalens from PATH', async () => {
      await waitForHints(session());
      const onPath = path.join(binDir, 'ssalens');
      assert.deepEqual(processesOf(onPath), [[onPath, 'serve']]);
    });
  });
});
