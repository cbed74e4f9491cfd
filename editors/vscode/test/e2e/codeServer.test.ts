// End-to-end: the packaged .vsix installed into a real VS Code (code-server, from the npm
// registry), driven in Debian's Chromium with playwright-core. Checks that the inlay hints render,
// that hover shows the φ operands and that "Show SSA for Function" opens the printed SSA.
//
// Inputs (environment; harness.ts reads more):
//   SSALENS_VSIX the .vsix (default: ssalens.vsix)
//   SSALENS_BIN  the server binary to set as ssalens.server.path (default: bin/ssalens)
//   SSALENS_UPDATE_SCREENSHOT=1  also copy the screenshot to editors/vscode/screenshot.png
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';

import { Page } from 'playwright-core';

import { root, Session, waitFor } from './harness';

describe('ssalens in code-server (VS Code 1.100)', { timeout: 10 * 60 * 1000 }, () => {
  let session: Session | undefined;
  let page: Page;
  const runCommand = (label: string) => session!.runCommand(label);
  const editorLines = (selector: string) => session!.editorLines(selector);

  before(async () => {
    const vsix = process.env.SSALENS_VSIX ?? path.join(root, 'ssalens.vsix');
    const bin = path.resolve(process.env.SSALENS_BIN ?? path.join(root, 'bin', 'ssalens'));
    assert.ok(fs.existsSync(vsix), `${vsix} exists (run npm run package)`);
    assert.ok(fs.existsSync(bin), `${bin} exists`);
    session = await Session.open({ vsix, settings: { 'ssalens.server.path': bin } });
    page = session.page;
  });

  afterEach(async (t) => {
    const failed = (t as unknown as { passed?: boolean }).passed === false;
    if (failed && session?.page) {
      await session.screenshot('vscode-e2e-failure.png');
    }
  });

  after(async () => {
    await session?.close();
  });

  it('renders the version and φ inlay hints', async () => {
    const editor = '.editor-group-container.active .editor-instance';
    const lines = await waitFor(
      'inlay hints',
      async () => {
        const l = await editorLines(editor);
        return l.some((t) => t.includes('x₃ ← φ(₁,₂)')) && l.some((t) => t.includes('i₂ ← φ(₁,₃)')) ? l : undefined;
      },
      90000,
    ).catch((err) => {
      throw new Error(`${err.message}\ncode-server log:\n${session!.log.slice(-4000)}`);
    });
    // The rendered lines read like `ssalens annotate` prints them.
    const text = lines.join('\n');
    assert.match(text, /function pick\(c₁\)/);
    assert.match(text, /let x₁ = 1;/);
    assert.match(text, /x₂ = 2;/);
    assert.match(text, /}\s*x₃ ← φ\(₁,₂\)/);
    assert.match(text, /return x₃;/);
    assert.match(text, /while \(i₂ < n₁\) {\s*i₂ ← φ\(₁,₃\)/);
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
    await session!.screenshot('vscode-e2e.png');
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
      return { phi: text.includes('x₃ ← φ(₁,₂)'), version: text.includes('x₁ = 1') };
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
      return text.includes('i₂ ← φ(₁,₃)');
    });
    await runCommand('ssalens: Show SSA for Function');
    await waitFor('Show SSA to answer from the restarted server', async () => {
      const all = await editorLines('.editor-group-container .editor-instance');
      return all.some((l) => l.includes('phi('));
    });
  });
});
