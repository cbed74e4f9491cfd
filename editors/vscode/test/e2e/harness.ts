// A real VS Code (code-server, from the npm registry) with a .vsix installed, driven in Debian's
// Chromium with playwright-core: what the end-to-end tests share.
//
// Environment:
//   CODE_SERVER  code-server's out/node/entry.js (default: what scripts/install-code-server.sh prints)
//   CHROMIUM     the browser (default: /usr/bin/chromium)
//   SSALENS_EDITORS_CACHE  where screenshots go (default: ~/.cache/ssalens-editors)
//   SSALENS_KEEP_E2E=1  keep the temporary folders (extensions, user data, workspace)
import * as assert from 'node:assert/strict';
import * as cp from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

import { Browser, chromium, Locator, Page } from 'playwright-core';

export const root = path.resolve(__dirname, '../../..'); // editors/vscode
export const cacheDir =
  process.env.SSALENS_EDITORS_CACHE ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'ssalens-editors');
export const fixture = path.resolve(root, '../testdata/sample.js');

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

export async function waitFor<T>(what: string, fn: () => Promise<T | undefined | false>, timeoutMs = 60000): Promise<T> {
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

export interface SessionOptions {
  /** The .vsix to install. */
  vsix: string;
  /** User settings on top of the ones that keep VS Code quiet and the editor predictable. */
  settings?: Record<string, unknown>;
  /** More files to put in the workspace, beside sample.js. */
  files?: string[];
  /**
   * The PATH the extension runs with. By default VS Code's server gives its extensions the
   * environment of the user's login shell, PATH included.
   */
  envPath?: string;
}

/** A running code-server with the extension installed and sample.js open in the browser. */
export class Session {
  readonly tmp: string;
  readonly extensionsDir: string;
  readonly workspace: string;
  page!: Page;
  private server: cp.ChildProcess | undefined;
  private browser: Browser | undefined;
  private serverLog = '';

  private constructor() {
    this.tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ssalens-e2e-'));
    this.extensionsDir = path.join(this.tmp, 'extensions');
    this.workspace = path.join(this.tmp, 'workspace');
  }

  /** What code-server and the page have logged. */
  get log(): string {
    return this.serverLog;
  }

  static async open(opts: SessionOptions): Promise<Session> {
    const s = new Session();
    try {
      await s.start(opts);
    } catch (err) {
      await s.close();
      throw err;
    }
    return s;
  }

  private async start(opts: SessionOptions): Promise<void> {
    const entry = codeServerEntry();
    assert.ok(fs.existsSync(opts.vsix), `${opts.vsix} exists`);
    const userData = path.join(this.tmp, 'user-data');
    fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
    fs.mkdirSync(this.workspace);
    fs.copyFileSync(fixture, path.join(this.workspace, 'sample.js'));
    for (const f of opts.files ?? []) {
      fs.copyFileSync(f, path.join(this.workspace, path.basename(f)));
    }
    fs.writeFileSync(
      path.join(userData, 'User', 'settings.json'),
      JSON.stringify(
        {
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
          'typescript.validate.enable': false,
          'typescript.suggest.enabled': false,
          ...opts.settings,
        },
        null,
        2,
      ),
    );
    const config = path.join(this.tmp, 'config.yaml');
    fs.writeFileSync(config, 'auth: none\ncert: false\n');
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      XDG_CONFIG_HOME: path.join(this.tmp, 'config'),
      XDG_DATA_HOME: path.join(this.tmp, 'data'),
    };
    if (opts.envPath !== undefined) {
      // VSCODE_CLI=1 makes the server skip the login shell's environment and keep this one.
      env.PATH = opts.envPath;
      env.VSCODE_CLI = '1';
    }
    const common = ['--config', config, '--extensions-dir', this.extensionsDir, '--user-data-dir', userData];

    cp.execFileSync(process.execPath, [entry, ...common, '--install-extension', opts.vsix], { env, stdio: 'inherit' });

    const port = await freePort();
    const server = cp.spawn(
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
        this.workspace,
      ],
      { env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.server = server;
    server.stdout!.on('data', (d) => (this.serverLog += d));
    server.stderr!.on('data', (d) => (this.serverLog += d));
    const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(this.workspace)}`;
    await waitFor('code-server to listen', async () => {
      if (server.exitCode !== null) {
        throw new Error(`code-server exited with ${server.exitCode}:\n${this.serverLog}`);
      }
      const res = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined);
      return res?.ok;
    });

    this.browser = await chromium.launch({
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
    const page = await this.browser.newPage({ viewport: { width: 1280, height: 720 } });
    this.page = page;
    page.on('pageerror', (err) => (this.serverLog += `\n[page error] ${err.message}`));
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
    await this.runCommand('View: Close Primary Side Bar');
  }

  /**
   * Opens the workspace file named name with Quick Open, waiting up to timeout ms for each step
   * (a file of megabytes takes a while to reach the browser).
   */
  async openFile(name: string, timeout = 30000): Promise<void> {
    const page = this.page;
    await page.keyboard.press('Control+P');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible', timeout });
    await input.fill(name);
    await page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().waitFor({ timeout });
    await page.keyboard.press('Enter');
    await page.locator('.editor-group-container.active .tab.active', { hasText: name }).waitFor({ timeout });
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout });
    await page.locator('.editor-group-container.active .editor-instance .view-lines').first().waitFor({ timeout });
  }

  /** Moves the cursor to the 1-based line (and column, from 1), centered on screen. */
  async goToLine(line: number, column?: number): Promise<void> {
    const page = this.page;
    await page.keyboard.press('Control+G');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible' });
    await input.fill(column ? `:${line}:${column}` : `:${line}`);
    // The quick input takes the line only once it has read what was filled in.
    await page.locator('.quick-input-widget', { hasText: String(line) }).waitFor();
    await waitFor(`line ${line}`, async () => {
      await page.keyboard.press('Enter');
      return page.locator('.quick-input-widget').isHidden();
    });
  }

  /** Runs a command through the command palette, picking the entry whose label is `label`. */
  async runCommand(label: string): Promise<void> {
    const page = this.page;
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible' });
    await input.fill(`>${label}`);
    // Enter runs the focused row: wait until the list has filtered down to the command, or a
    // busy machine runs whichever row was focused before (a lost "Toggle Inlay Hints" left
    // every later test without hints).
    const row = page.locator('.quick-input-list .monaco-list-row.focused', { hasText: label }).first();
    await row.waitFor({ state: 'visible', timeout: 15000 });
    await page.keyboard.press('Enter');
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
  }

  /**
   * Hovers the character `offset` characters into the first match of `at` in the line of
   * `editor` that matches `line`, and returns the hover's text once it contains `want`. The DOM
   * has no-break spaces: match spaces with `.`.
   */
  async hover(editor: Locator, line: RegExp, at: RegExp, offset: number, want: string): Promise<string> {
    const page = this.page;
    const view = editor.locator('.view-line', { hasText: line });
    await view.first().waitFor();
    const point = await view.first().evaluate(
      (el, { source, flags, offset }) => {
        // Tokens are separate spans: find the character in the line's whole text, then its node.
        const nodes: Text[] = [];
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          nodes.push(n as Text);
        }
        const whole = nodes.map((n) => n.data).join('');
        let i = whole.search(new RegExp(source, flags));
        if (i < 0) {
          return undefined;
        }
        i += offset;
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
      },
      { source: at.source, flags: at.flags, offset },
    );
    assert.ok(point, `found ${at} in the line ${line}`);
    const { x, y } = point;
    const hover = page.locator('.monaco-hover:not(.hidden) .monaco-hover-content, .monaco-hover .hover-contents').first();
    return waitFor(`the hover of ${at}`, async () => {
      await page.mouse.move(x - 20, y + 60);
      await page.mouse.move(x, y, { steps: 4 });
      await hover.waitFor({ state: 'visible', timeout: 4000 }).catch(() => undefined);
      const t = (await hover.textContent().catch(() => '')) ?? '';
      return t.includes(want) ? t : undefined;
    });
  }

  /** The text of every rendered line of the editors that `selector` picks, top to bottom. */
  async editorLines(selector: string): Promise<string[]> {
    return this.page.locator(`${selector} .view-lines .view-line`).evaluateAll((els) =>
      els
        .map((e) => ({ top: parseFloat((e as HTMLElement).style.top || '0'), text: (e.textContent ?? '').replace(/\u00a0/g, ' ') }))
        .sort((a, b) => a.top - b.top)
        .map((l) => l.text),
    );
  }

  /**
   * Saves a screenshot of the page in the cache folder under `name` and says where; with
   * SSALENS_UPDATE_SCREENSHOT=1, also as `readme` in editors/vscode, for the READMEs.
   */
  async screenshot(name: string, readme?: string): Promise<void> {
    fs.mkdirSync(cacheDir, { recursive: true });
    const shot = path.join(cacheDir, name);
    await this.page.screenshot({ path: shot }).catch(() => undefined);
    console.log(`# screenshot: ${shot}`);
    if (readme && process.env.SSALENS_UPDATE_SCREENSHOT === '1') {
      fs.copyFileSync(shot, path.join(root, readme));
    }
  }

  async close(): Promise<void> {
    await this.browser?.close().catch(() => undefined);
    const server = this.server;
    if (server && server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 500));
      if (server.exitCode === null) {
        server.kill('SIGKILL');
      }
    }
    if (!process.env.SSALENS_KEEP_E2E) {
      fs.rmSync(this.tmp, { recursive: true, force: true });
    }
  }
}
