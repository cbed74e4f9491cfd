// End-to-end: VS Code says when ssalens is analyzing a file, and how many of its functions it
// could not analyze. typescript.js (9 MB, seconds to analyze) is opened in a real VS Code
// (code-server): the server reports the analysis with $/progress, which vscode-languageclient
// shows as VS Code's window progress in the status bar, and with ssalens/status, which the
// ssalens item shows as "analyzing…" and then, once done, as the count of the file's functions
// not analyzed, if it has any. A small file with a with statement and a direct eval has two: the
// item counts them while that file is the active editor, and not while typescript.js is.
//
// typescript.js comes from the npm corpus the Go tests fetch (SSALENS_CORPUS_DIR, by default
// ~/.cache/ssalens-corpus); the test skips when it is not there.
import * as assert from 'node:assert/strict';
import * as cp from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, it } from 'node:test';

import { Page } from 'playwright-core';

import { root, Session, waitFor } from './harness';

const vsix = process.env.SSALENS_VSIX ?? path.join(root, 'ssalens.vsix');
const bin = path.resolve(process.env.SSALENS_BIN ?? path.join(root, 'bin', 'ssalens'));
const corpusDir = process.env.SSALENS_CORPUS_DIR ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'ssalens-corpus');
const typescript = path.join(corpusDir, 'typescript@6.0.3', 'lib', 'typescript.js');
const notAnalyzed = path.resolve(root, '../testdata/not-analyzed.js');

/** The ssalens status-bar item (its id is the extension's id and the item's). */
const ITEM = '[id="ssalens.ssalens.ssalens.status"]';
/** VS Code's window progress in the status bar. */
const PROGRESS = '[id="status.progress"]';

/**
 * What the item says of file once it is analyzed: its count of functions not analyzed, which is
 * that of `ssalens check`'s information and error lines (the server counts the same diagnostics).
 */
function itemOnceAnalyzed(file: string): string {
  const out = cp.spawnSync(bin, ['check', file], { encoding: 'utf8' });
  assert.ok(out.status === 0 || out.status === 1, `ssalens check ${file}: ${out.stderr}`);
  const n = out.stdout.split('\n').filter((l) => /: (information|error): /.test(l)).length;
  return n === 0 ? 'ssalens' : `ssalens · ${n} not analyzed`;
}

/**
 * Starts recording every text the ssalens item and the window progress show, in the page, so
 * that none is missed between two polls; returns a function that reads the record.
 */
async function recordStatusBar(page: Page): Promise<() => Promise<{ item: string[]; progress: string[] }>> {
  await page.evaluate(
    ([item, progress]) => {
      const seen = { item: [] as string[], progress: [] as string[] };
      (window as unknown as { ssalensSeen: typeof seen }).ssalensSeen = seen;
      const note = (list: string[], el: Element | null) => {
        const text = el?.textContent?.trim();
        if (text && list[list.length - 1] !== text) {
          list.push(text);
        }
      };
      const look = () => {
        note(seen.item, document.querySelector(item));
        note(seen.progress, document.querySelector(progress));
      };
      new MutationObserver(look).observe(document.querySelector('.part.statusbar')!, { subtree: true, childList: true, characterData: true });
      look();
    },
    [ITEM, PROGRESS],
  );
  return () => page.evaluate(() => (window as unknown as { ssalensSeen: { item: string[]; progress: string[] } }).ssalensSeen);
}

describe('progress and status in code-server', { skip: !fs.existsSync(typescript) && 'the npm corpus is not fetched' }, () => {
  let session: Session | undefined;

  afterEach(async (t) => {
    if ((t as unknown as { passed?: boolean }).passed === false) {
      await session?.screenshot('vscode-progress-failure.png');
    }
    await session?.close();
    session = undefined;
  });

  it('shows typescript.js being analyzed, then the functions not analyzed of the active file', async () => {
    const s = (session = await Session.open({ vsix, files: [typescript, notAnalyzed], settings: { 'ssalens.server.path': bin } }));
    const page = s.page;
    const item = page.locator(ITEM);
    const itemText = async () => (await item.textContent())?.trim();
    await waitFor('the ssalens item of a running server', async () => (await itemText()) === 'ssalens');
    const seen = await recordStatusBar(page);

    // Waited for from before the file opens, so that the analysis cannot end unseen.
    const analyzing = item.filter({ hasText: 'ssalens: analyzing…' }).waitFor({ timeout: 120000 });
    await s.openFile('typescript.js', 120000);
    await analyzing;
    await s.screenshot('vscode-analyzing.png');
    const typescriptDone = itemOnceAnalyzed(typescript);
    await waitFor(`the item to say "${typescriptDone}"`, async () => (await itemText()) === typescriptDone, 120000);
    const record = await seen();
    console.log(`# the ssalens item showed: ${JSON.stringify(record.item)}`);
    console.log(`# VS Code's window progress showed: ${JSON.stringify(record.progress)}`);
    assert.deepEqual(record.item, ['ssalens', 'ssalens: analyzing…', typescriptDone], 'the ssalens item, in order');
    assert.ok(record.progress.includes('ssalens: analyzing typescript.js'), "VS Code's window progress reported the analysis");

    await s.openFile('not-analyzed.js');
    const notAnalyzedDone = itemOnceAnalyzed(notAnalyzed);
    assert.equal(notAnalyzedDone, 'ssalens · 2 not analyzed', 'a with statement and a direct eval');
    await waitFor(`the item to say "${notAnalyzedDone}"`, async () => (await itemText()) === notAnalyzedDone);
    // The code lens the tooltip points to.
    await page.locator('.codelens-decoration', { hasText: '2 functions not analyzed' }).waitFor();
    await item.hover();
    const tooltip = page.locator('.monaco-hover', { hasText: 'Why Variables Have No Versions' });
    await tooltip.waitFor();
    assert.match((await tooltip.textContent()) ?? '', /^2 functions of this file are not analyzed: their variables have no SSA versions\./);
    await s.screenshot('vscode-not-analyzed.png');

    // The item follows the active editor.
    await page.mouse.move(600, 300); // away from the tooltip
    await tooltip.waitFor({ state: 'hidden' });
    await page.locator('.tab', { hasText: 'typescript.js' }).click();
    await waitFor(`the item to say "${typescriptDone}" again`, async () => (await itemText()) === typescriptDone);
  });
});
