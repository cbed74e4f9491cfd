// End-to-end: the packaged .vsix installed into a real VS Code (code-server, from the npm
// registry), driven in Debian's Chromium with playwright-core. Checks that the inlay hints render,
// that hover shows the φ operands and that "Show SSA for Function" opens the printed SSA.
//
// Inputs (environment):
//   CODE_SERVER  code-server's out/node/entry.js (default: what scripts/install-code-server.sh prints)
//   SSALENS_VSIX the .vsix (default: ssalens.vsix)
//   SSALENS_BIN  the server binary to set as ssalens.server.path (default: bin/ssalens)
//   CHROMIUM     the browser (default: /usr/bin/chromium)
//   SSALENS_EDITORS_CACHE  where screenshots go (default: ~/.cache/ssalens-editors)
//   SSALENS_UPDATE_SCREENSHOT=1  also copy the screenshot to editors/vscode/screenshot.png
import * as assert from 'node:assert/strict';
import * as cp from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';

import { Browser, chromium, Page } from 'playwright-core';

const root = path.resolve(__dirname, '../../..'); // editors/vscode
const cacheDir =
  process.env.SSALENS_EDITORS_CACHE ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'ssalens-editors');
const fixture = path.resolve(root, '../testdata/sample.js');

function codeServerEntry(): string {
  if (process.env.CODE_SERVER) {
    return process.env.CODE_SERVER;
  }
  const out = cp.execFileSync('bash', [path.join(root, 'scripts/install-code-server.sh')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return out.trim().split('\n').pop()!;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

async function waitFor<T>(what: string, fn: () => Promise<T | undefined | false>, timeoutMs = 60000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const v = await fn();
      if (v) {
        return v;
      }
    } catch (err) {
      if (String(err).includes('exited with')) {
        throw err;
      }
      last = err;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${last}` : ''}`);
}

describe('ssalens in code-server (VS Code 1.100)', { timeout: 10 * 60 * 1000 }, () => {
  let tmp: string;
  let server: cp.ChildProcess | undefined;
  let serverLog = '';
  let browser: Browser | undefined;
  let page: Page;
  let workspace: string;

  /** Runs a command through the command palette, picking the entry whose label is `label`. */
  async function runCommand(label: string): Promise<void> {
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible' });
    await input.fill(`>${label}`);
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: label }).first();
    await row.waitFor({ state: 'visible', timeout: 15000 });
    await page.keyboard.press('Enter');
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
  }

  /** The text of every rendered line of the editor whose tab is active in `group` (0-based). */
  async function editorLines(selector: string): Promise<string[]> {
    return page.locator(`${selector} .view-lines .view-line`).evaluateAll((els) =>
      els
        .map((e) => ({ top: parseFloat((e as HTMLElement).style.top || '0'), text: (e.textContent ?? '').replace(/\u00a0/g, ' ') }))
        .sort((a, b) => a.top - b.top)
        .map((l) => l.text),
    );
  }

  before(async () => {
    const entry = codeServerEntry();
    const vsix = process.env.SSALENS_VSIX ?? path.join(root, 'ssalens.vsix');
    const bin = path.resolve(process.env.SSALENS_BIN ?? path.join(root, 'bin', 'ssalens'));
    assert.ok(fs.existsSync(vsix), `${vsix} exists (run npm run package)`);
    assert.ok(fs.existsSync(bin), `${bin} exists`);

    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ssalens-e2e-'));
    const extDir = path.join(tmp, 'extensions');
    const userData = path.join(tmp, 'user-data');
    workspace = path.join(tmp, 'workspace');
    fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
    fs.mkdirSync(workspace);
    fs.copyFileSync(fixture, path.join(workspace, 'sample.js'));
    fs.writeFileSync(
      path.join(userData, 'User', 'settings.json'),
      JSON.stringify(
        {
          'ssalens.server.path': bin,
          'editor.inlayHints.enabled': 'on',
          'editor.minimap.enabled': false,
          'editor.fontSize': 15,
          'workbench.startupEditor': 'none',
          'workbench.tips.enabled': false,
          'workbench.enableExperiments': false,
          'workbench.colorTheme': 'Default Dark Modern',
          'workbench.welcomePage.walkthroughs.openOnInstall': false,
          'security.workspace.trust.enabled': false,
          'telemetry.telemetryLevel': 'off',
          'extensions.autoCheckUpdates': false,
          'extensions.autoUpdate': false,
          'chat.commandCenter.enabled': false,
          'window.commandCenter': false,
          'update.mode': 'none',
          // Typing in the test must not accept completions.
          'editor.quickSuggestions': { other: 'off', comments: 'off', strings: 'off' },
          'editor.suggestOnTriggerCharacters': false,
          'editor.acceptSuggestionOnCommitCharacter': false,
          'editor.parameterHints.enabled': false,
          'editor.autoClosingBrackets': 'never',
          'editor.hover.delay': 200,
          'javascript.validate.enable': false,
          'javascript.suggest.enabled': false,
        },
        null,
        2,
      ),
    );
    const config = path.join(tmp, 'config.yaml');
    fs.writeFileSync(config, 'auth: none\ncert: false\n');
    const env = { ...process.env, XDG_CONFIG_HOME: path.join(tmp, 'config'), XDG_DATA_HOME: path.join(tmp, 'data') };
    const common = ['--config', config, '--extensions-dir', extDir, '--user-data-dir', userData];

    cp.execFileSync(process.execPath, [entry, ...common, '--install-extension', vsix], { env, stdio: 'inherit' });

    const port = await freePort();
    server = cp.spawn(
      process.execPath,
      [
        entry,
        ...common,
        '--auth',
        'none',
        '--bind-addr',
        `127.0.0.1:${port}`,
        '--disable-telemetry',
        '--disable-update-check',
        '--disable-workspace-trust',
        '--disable-getting-started-override',
        workspace,
      ],
      { env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    server.stdout!.on('data', (d) => (serverLog += d));
    server.stderr!.on('data', (d) => (serverLog += d));
    const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`;
    await waitFor('code-server to listen', async () => {
      if (server!.exitCode !== null) {
        throw new Error(`code-server exited with ${server!.exitCode}:\n${serverLog}`);
      }
      const res = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined);
      return res?.ok;
    });

    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    page.on('pageerror', (err) => (serverLog += `\n[page error] ${err.message}`));
    await page.goto(url);
    await page.locator('.monaco-workbench').waitFor({ timeout: 60000 });
    // Open the fixture with Quick Open.
    await waitFor('the explorer to list sample.js', async () => (await page.locator('.explorer-folders-view', { hasText: 'sample.js' }).count()) > 0);
    await page.keyboard.press('Control+P');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible' });
    await input.fill('sample.js');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'sample.js' }).first().waitFor();
    await page.keyboard.press('Enter');
    await page.locator('.editor-instance .view-lines').first().waitFor();
    await runCommand('View: Close Primary Side Bar');
  });

  afterEach(async (t) => {
    const failed = (t as unknown as { passed?: boolean }).passed === false;
    if (failed && page) {
      fs.mkdirSync(cacheDir, { recursive: true });
      const shot = path.join(cacheDir, 'vscode-e2e-failure.png');
      await page.screenshot({ path: shot }).catch(() => undefined);
      console.log(`# failure screenshot: ${shot}`);
    }
  });

  after(async () => {
    await browser?.close().catch(() => undefined);
    if (server && server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 500));
      if (server.exitCode === null) {
        server.kill('SIGKILL');
      }
    }
    if (tmp && !process.env.SSALENS_KEEP_E2E) {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('renders the version and φ inlay hints', async () => {
    const editor = '.editor-group-container.active .editor-instance';
    const lines = await waitFor(
      'inlay hints',
      async () => {
        const l = await editorLines(editor);
        return l.some((t) => t.includes('φ x₃ = (x₁, x₂)')) && l.some((t) => t.includes('φ i₂ = (i₁, i₃)')) ? l : undefined;
      },
      90000,
    ).catch((err) => {
      throw new Error(`${err.message}\ncode-server log:\n${serverLog.slice(-4000)}`);
    });
    // The rendered lines read like `ssalens annotate` prints them.
    const text = lines.join('\n');
    assert.match(text, /function pick\(c₁\)/);
    assert.match(text, /let x₁ = 1;/);
    assert.match(text, /x₂ = 2;/);
    assert.match(text, /}\s*φ x₃ = \(x₁, x₂\)/);
    assert.match(text, /return x₃;/);
    assert.match(text, /while \(i₂ < n₁\) {\s*φ i₂ = \(i₁, i₃\)/);
    assert.match(text, /i₂→₃\+\+;/);
    // The hints are inlay hints (decorations), not text: the model is unchanged.
    const hintSpans = await page.locator(`${editor} .view-lines span[class*="dyn-rule"]`).count();
    assert.ok(hintSpans > 0, 'inlay hints are rendered as decorations');
  });

  it('shows the ssalens status-bar item', async () => {
    const item = page.locator('.statusbar-item', { hasText: 'ssalens' });
    await item.first().waitFor({ state: 'visible', timeout: 15000 });
  });

  it('opens the printed SSA beside the source with "Show SSA for Function"', async () => {
    // Put the cursor in `pick`, on the read of x after the join (line 7, column 10).
    await page.keyboard.press('Control+G');
    await page.locator('.quick-input-widget input').fill(':7:10');
    await page.keyboard.press('Enter');
    await runCommand('ssalens: Show SSA for Function');
    const ssaEditor = '.editor-group-container:not(.active) .editor-instance, .editor-group-container .editor-instance';
    const lines = await waitFor('the SSA document', async () => {
      const tab = await page.locator('.tab', { hasText: 'sample.js@7:10.ssa' }).count();
      if (!tab) {
        return undefined;
      }
      const all = await editorLines(ssaEditor);
      return all.some((l) => l.includes('phi(')) ? all : undefined;
    });
    const text = lines.join('\n');
    assert.match(text, /SSA of pick/);
    assert.match(text, /x\$3: phi\(bb\d+: x\$1, bb\d+: x\$2\)/);
    assert.equal(await page.locator('.editor-group-container').count(), 2, 'opened beside the source');
  });

  it('refreshes the SSA document when the source changes', async () => {
    // Focus the source editor (first group) and insert a statement in pick.
    await page.locator('.editor-group-container').first().locator('.view-lines').click({ position: { x: 400, y: 5 } });
    await page.keyboard.press('Control+G');
    await page.locator('.quick-input-widget input').fill(':5:11');
    await page.keyboard.press('Enter');
    await page.keyboard.press('End');
    const added = ' x = x + 40;';
    await page.keyboard.type(added, { delay: 10 });
    await waitFor('the SSA document to show the new instruction', async () => {
      const all = await editorLines('.editor-group-container .editor-instance');
      return all.some((l) => /Const 40/.test(l));
    });
    // Take the text out again, the way it went in.
    for (let i = 0; i < added.length; i++) {
      await page.keyboard.press('Shift+ArrowLeft');
    }
    await page.keyboard.press('Delete');
    await page.keyboard.press('Home');
    await waitFor('the SSA document to be back', async () => {
      const all = await editorLines('.editor-group-container .editor-instance');
      return !all.some((l) => /Const 40/.test(l)) && all.some((l) => /x\$3: phi/.test(l));
    });
  });

  it('hovers a variable to show the φ operands', async () => {
    const source = page.locator('.editor-group-container').first();
    // Move the mouse over the `x` of `return x₃;` (the DOM has no-break spaces).
    const line = source.locator('.view-line', { hasText: /return.x₃;/ });
    await line.waitFor();
    const at = await line.evaluate((el) => {
      // Tokens are separate spans: find the character in the line's whole text, then its node.
      const nodes: Text[] = [];
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        nodes.push(n as Text);
      }
      const whole = nodes.map((n) => n.data).join('');
      let i = whole.search(/return.x/);
      if (i < 0) {
        return undefined;
      }
      i += 7;
      for (const n of nodes) {
        if (i < n.data.length) {
          const r = document.createRange();
          r.setStart(n, i);
          r.setEnd(n, i + 1);
          const b = r.getBoundingClientRect();
          return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
        }
        i -= n.data.length;
      }
      return undefined;
    });
    assert.ok(at, 'found `return x` in the DOM');
    const { x, y } = at;
    const hover = page.locator('.monaco-hover:not(.hidden) .monaco-hover-content, .monaco-hover .hover-contents').first();
    const text = await waitFor('the hover', async () => {
      await page.mouse.move(x - 20, y + 60);
      await page.mouse.move(x, y, { steps: 4 });
      await hover.waitFor({ state: 'visible', timeout: 4000 }).catch(() => undefined);
      const t = (await hover.textContent().catch(() => '')) ?? '';
      return t.includes('φ') ? t : undefined;
    });
    assert.match(text, /x₃/);
    assert.match(text, /x₁/);
    assert.match(text, /x₂/);

    // VS Code's own JavaScript hover mixes in below ours; give it a moment to render.
    await new Promise((r) => setTimeout(r, 1000));
    const shot = path.join(cacheDir, 'vscode-e2e.png');
    fs.mkdirSync(cacheDir, { recursive: true });
    await page.screenshot({ path: shot });
    console.log(`# screenshot: ${shot}`);
    if (process.env.SSALENS_UPDATE_SCREENSHOT === '1') {
      await page.screenshot({ path: path.join(root, 'screenshot.png') });
    }
  });

  it('"Toggle Inlay Hints" hides both kinds of hint and shows them again', async () => {
    const source = '.editor-group-container:first-child .editor-instance';
    await page.mouse.move(5, 5);
    await page.keyboard.press('Escape');
    const hasHints = async () => {
      const text = (await editorLines(source)).join('\n');
      return { phi: text.includes('φ x₃ = (x₁, x₂)'), version: text.includes('x₁ = 1') };
    };
    await runCommand('ssalens: Toggle Inlay Hints');
    await waitFor('the hints to go', async () => {
      const h = await hasHints();
      return !h.phi && !h.version;
    });
    await runCommand('ssalens: Toggle Inlay Hints');
    await waitFor('the hints to come back', async () => {
      const h = await hasHints();
      return h.phi && h.version;
    });
  });

  it('"Restart Server" brings the server back with its hints', async () => {
    await runCommand('ssalens: Restart Server');
    await page.locator('.statusbar-item', { hasText: 'ssalens' }).first().waitFor();
    const source = '.editor-group-container:first-child .editor-instance';
    await waitFor('hints from the restarted server', async () => {
      const text = (await editorLines(source)).join('\n');
      return text.includes('φ i₂ = (i₁, i₃)');
    });
    await runCommand('ssalens: Show SSA for Function');
    await waitFor('Show SSA to answer from the restarted server', async () => {
      const all = await editorLines('.editor-group-container .editor-instance');
      return all.some((l) => l.includes('phi('));
    });
  });
});
