// End-to-end: the packaged .vsix installed into a real VS Code (code-server, from the npm
// registry), driven in Debian's Chromium with playwright-core. Checks that the inlay hints render,
// that the live Show SSA view follows the cursor and the edits and leads back to the source, that
// hover shows the φ operands, that the scope "function" focuses the hints, that ssalens' own
// references list is exactly the server's answer, and the same hints and hovers in a .ts and a
// .tsx file.
//
// Inputs (environment; harness.ts reads more):
//   SSALENS_VSIX the .vsix (default: ssalens.vsix)
//   SSALENS_BIN  the server binary to set as ssalens.server.path (default: bin/ssalens)
//   SSALENS_UPDATE_SCREENSHOT=1  also copy the screenshots the READMEs show to editors/vscode
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';

import { Page } from 'playwright-core';

import { fixture, root, Session, waitFor } from './harness';
import { askServer } from './lsp';

describe('ssalens in code-server (VS Code 1.100)', { timeout: 10 * 60 * 1000 }, () => {
  let session: Session | undefined;
  let page: Page;
  const runCommand = (label: string) => session!.runCommand(label);
  const editorLines = (selector: string) => session!.editorLines(selector);
  // The Show SSA view: a webview, whose content is in a frame inside a frame.
  const view = {
    locator: (selector: string) => page.frameLocator('iframe.webview').frameLocator('#active-frame').locator(selector),
  };
  const focusSource = () => page.keyboard.press('Control+1'); // the first editor group
  const setScope = async (label: string) => {
    // The command's quick pick follows the command palette's in one widget: wait for its title.
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget input');
    await input.fill('>ssalens: Set Inlay Hint Scope');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Set Inlay Hint Scope' }).first().waitFor();
    await page.keyboard.press('Enter');
    await page.locator('.quick-input-widget .quick-input-title', { hasText: 'which inlay hints to show' }).waitFor();
    await input.fill(label);
    await page.locator('.quick-input-list .monaco-list-row .label-name', { hasText: new RegExp(`^${label}$`) }).waitFor();
    await page.keyboard.press('Enter');
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
    await focusSource();
  };

  before(async () => {
    const vsix = process.env.SSALENS_VSIX ?? path.join(root, 'ssalens.vsix');
    const bin = path.resolve(process.env.SSALENS_BIN ?? path.join(root, 'bin', 'ssalens'));
    assert.ok(fs.existsSync(vsix), `${vsix} exists (run npm run package)`);
    assert.ok(fs.existsSync(bin), `${bin} exists`);
    const typescript = ['sample.ts', 'sample.tsx'].map((name) => path.resolve(fixture, '..', name));
    session = await Session.open({ vsix, settings: { 'ssalens.server.path': bin }, files: typescript });
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

  it('"Show SSA for Function" opens a live view beside the source that follows the cursor', async () => {
    await session!.goToLine(7, 10); // in pick, on the read of x after the join
    await runCommand('ssalens: Show SSA for Function');
    await waitFor('the view of pick', async () => (await view.locator('h1').textContent().catch(() => ''))?.includes('SSA of pick'));
    assert.equal(await page.locator('.editor-group-container').count(), 2, 'opened beside the source');
    assert.equal(await view.locator('svg.cfg g.block').count(), 3, 'a box per block');
    assert.match((await view.locator('.listing').textContent()) ?? '', /x₃ ← φ\(₁,₂\)/);
    assert.doesNotMatch((await view.locator('.listing').textContent()) ?? '', /\$3: phi|x\$/, 'no second notation');

    // The cursor moves to count: the view follows, and marks the rows of the cursor's line.
    await focusSource();
    await session!.goToLine(13, 5);
    await waitFor('the view of count', async () => (await view.locator('h1').textContent().catch(() => ''))?.includes('SSA of count'));
    assert.equal(await view.locator('svg.cfg g.block').count(), 4);
    assert.equal(await view.locator('svg.cfg path.edge.back').count(), 1, "the loop's back edge");
    await waitFor('the rows of line 13 marked', async () => (await view.locator('.row.current:not(.head) .ln').allTextContents()).join() === '13,13,13,13');
    assert.match((await view.locator('.listing').textContent()) ?? '', /i₂ ← φ\(₁,₃\)/);
    await session!.screenshot('vscode-ssa-view.png', 'ssa-view.png');

    // A click on a block shows its source: bb3, the loop's exit, is `return i` on line 15.
    await view.locator('svg.cfg g.block[data-block="3"]').click();
    await waitFor('the cursor on line 15', async () => (await page.locator('.statusbar-item', { hasText: /Ln \d+, Col/ }).textContent())?.includes('Ln 15'));
    // And a click on a row shows its line: the φ of the loop, on line 12.
    await view.locator('.row.phi').first().click();
    await waitFor('the cursor on line 12', async () => (await page.locator('.statusbar-item', { hasText: /Ln \d+, Col/ }).textContent())?.includes('Ln 12'));
  });

  it('the live view follows edits of the source', async () => {
    await focusSource();
    await session!.goToLine(13, 9);
    await page.keyboard.press('End');
    const added = ' i += 40;';
    await page.keyboard.type(added, { delay: 10 });
    await waitFor('the view to show the new instruction', async () => /Const 40/.test((await view.locator('.listing').textContent()) ?? ''));
    for (let i = 0; i < added.length; i++) {
      await page.keyboard.press('Shift+ArrowLeft');
    }
    await page.keyboard.press('Delete');
    await waitFor('the view to be back', async () => {
      const text = (await view.locator('.listing').textContent()) ?? '';
      return !/Const 40/.test(text) && /i₂ ← φ/.test(text);
    });
  });

  it('hovers a variable to show the φ operands', async () => {
    const source = page.locator('.editor-group-container').first();
    // Move the mouse over the `x` of `return x₃;`.
    const text = await session!.hover(source, /return.x₃;/, /return.x/, 7, 'φ');
    assert.match(text, /x₃/);
    assert.match(text, /x₁/);
    assert.match(text, /x₂/);

    // VS Code's own JavaScript hover mixes in below ours; give it a moment to render.
    await new Promise((r) => setTimeout(r, 1000));
    await session!.screenshot('vscode-e2e.png', 'screenshot.png');
  });

  it('the scope "function" shows hints only in the function under the cursor', async () => {
    const source = '.editor-group-container:first-child .editor-instance';
    await page.mouse.move(5, 5);
    await page.keyboard.press('Escape');
    await focusSource();
    const shown = async () => {
      const text = (await editorLines(source)).join('\n');
      return { pick: /let x₁ = 1;/.test(text), count: /let i₁ = 0;/.test(text), overwrite: /let y₁ = 1;/.test(text) };
    };
    await session!.goToLine(13, 5); // in count
    await setScope('Function');
    await waitFor('only the hints of count', async () => {
      const s = await shown();
      return !s.pick && s.count && !s.overwrite;
    });
    const lines = (await editorLines(source)).join('\n');
    assert.match(lines, /while \(i₂ < n₁\) {\s*i₂ ← φ\(₁,₃\)/, 'the φ of count');
    assert.doesNotMatch(lines, /[xy]₃|φ\(₁,₂\)/, 'no hint of pick or overwrite');
    await session!.screenshot('vscode-focus.png', 'focus.png');

    await session!.goToLine(3, 5); // in pick
    await waitFor('only the hints of pick', async () => {
      const s = await shown();
      return s.pick && !s.count && !s.overwrite;
    });
    await setScope('File');
    await waitFor('every hint again', async () => {
      const s = await shown();
      return s.pick && s.count && s.overwrite;
    });
  });

  it('"ssalens: Find Value References" (Ctrl+Alt+R) lists exactly the server\'s locations, with versions', async () => {
    const bin = path.resolve(process.env.SSALENS_BIN ?? path.join(root, 'bin', 'ssalens'));
    const at = { line: 11, character: 9 }; // the i of `while (i < n)`
    const want = await askServer<{ label: string; range: { start: { line: number } } }[]>(bin, fixture, 'ssalens/valueReferences', (uri) => ({
      textDocument: { uri },
      position: at,
    }));
    assert.ok(want.length >= 3, `the server answers ${JSON.stringify(want)}`);
    await focusSource();
    await session!.goToLine(at.line + 1, at.character + 1);
    await page.keyboard.press('Control+Alt+R');
    const rows = page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
    await rows.first().waitFor({ state: 'visible', timeout: 15000 });
    assert.match((await page.locator('.quick-input-widget .quick-input-title').textContent()) ?? '', /value references of i \(\d+\)/);
    const got = await rows.evaluateAll((els) =>
      els.map((el) => ({
        label: el.querySelector('.label-name')?.textContent ?? '',
        description: el.querySelector('.label-description')?.textContent ?? '',
      })),
    );
    assert.deepEqual(
      got,
      want.map((w) => ({ label: w.label, description: `sample.js:${w.range.start.line + 1}` })),
    );
    await page.keyboard.press('Escape');
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
  });

  it('"Toggle Inlay Hints" hides both kinds of hint and shows them again', async () => {
    const source = '.editor-group-container:first-child .editor-instance';
    await page.mouse.move(5, 5);
    await page.keyboard.press('Escape');
    const hasHints = async () => {
      const text = (await editorLines(source)).join('\n');
      return { phi: text.includes('x₃ ← φ(₁,₂)'), version: text.includes('x₁ = 1') };
    };
    // The command says what it did in the status bar: a toggle lost, or one that read the
    // settings half-written by the one before it, fails here rather than as hints that never
    // come back.
    const toggle = async (to: 'on' | 'off') => {
      await runCommand('ssalens: Toggle Inlay Hints');
      await page.locator('.statusbar-item', { hasText: `ssalens: inlay hints ${to}` }).first().waitFor({ timeout: 15000 });
    };
    await toggle('off');
    await waitFor('the hints to go', async () => {
      const h = await hasHints();
      return !h.phi && !h.version;
    });
    await toggle('on');
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
    await focusSource();
    await session!.goToLine(3, 5);
    await waitFor('the view to answer from the restarted server', async () => (await view.locator('h1').textContent().catch(() => ''))?.includes('SSA of pick'));
  });

  it('analyzes a .ts file: version and φ hints, and a φ hover with the declared type', async () => {
    await page.keyboard.press('Escape');
    await runCommand('View: Close All Editor Groups');
    await waitFor('one editor group, empty', async () =>
      (await page.locator('.editor-group-container').count()) === 1 && (await page.locator('.tab').count()) === 0,
    );
    await session!.openFile('sample.ts');
    const editor = '.editor-group-container.active .editor-instance';
    const lines = await waitFor(
      'inlay hints in sample.ts',
      async () => {
        const l = await editorLines(editor);
        return l.some((t) => t.includes('x₃ ← φ(₁,₂)')) && l.some((t) => t.includes('i₂ ← φ(₁,₃)')) ? l : undefined;
      },
      90000,
    );
    const text = lines.join('\n');
    assert.match(text, /function pick\(c₁: boolean\): number {/);
    assert.match(text, /let x₁: number = Step\.One;/);
    assert.match(text, /x₂ = Step\.Two as number;/);
    assert.match(text, /}\s*x₃ ← φ\(₁,₂\)/);
    assert.match(text, /while \(i₂ < n₁\) {\s*i₂ ← φ\(₁,₃\)/);
    assert.match(text, /return counter₁\.n \+ i₂!;/);
    const hover = await session!.hover(page.locator('.editor-group-container.active'), /return.x₃;/, /return.x/, 7, 'version 3 of x: number');
    assert.match(hover, /version 3 of x: number \(let\)/);
    assert.match(hover, /x₁/);
    assert.match(hover, /x₂/);
  });

  it('analyzes a .tsx file: version and φ hints in JSX, and a φ hover', async () => {
    await page.mouse.move(5, 5);
    await page.keyboard.press('Escape');
    await session!.openFile('sample.tsx');
    const editor = '.editor-group-container.active .editor-instance';
    const lines = await waitFor('inlay hints in sample.tsx', async () => {
      const l = await editorLines(editor);
      return l.some((t) => t.includes('label₃ ← φ(₁,₂)')) ? l : undefined;
    });
    const text = lines.join('\n');
    assert.match(text, /export function Item\({ done₁, title₁ }: Props\) {/);
    assert.match(text, /let label₁: string = title₁;/);
    assert.match(text, /label₂ = `\$\{title₁\} \(done\)`;/);
    assert.match(text, /className={done₁ \? "done" : undefined}>{label₃}<\/li>/);
    const hover = await session!.hover(page.locator('.editor-group-container.active'), /{label₃}/, /{label/, 1, 'version 3 of label');
    assert.match(hover, /label₃/);
    assert.match(hover, /version 3 of label: string \(let\)/);
    await new Promise((r) => setTimeout(r, 1000));
    await session!.screenshot('vscode-e2e-tsx.png');
  });
});
