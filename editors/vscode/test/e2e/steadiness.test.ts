// End-to-end on real files written by others, in a real VS Code (code-server):
//   - typing an incomplete line in lodash's baseMergeDeep keeps the hints of the functions
//     around it on screen, keystroke after keystroke;
//   - the φ hints of three.module.js's getInternalFormat fit VS Code's default hint width
//     (editor.inlayHints.maximumLength, 43), set back by the user: none is cut, and a
//     screenshot shows them;
//   - a line with more φs than that width holds together (a loop header with 18 loop-carried
//     variables) shows them all: the extension turns VS Code's cap off in JavaScript and
//     TypeScript files, since it counts all the hints of a line together and drops those past
//     it without a word.
//
// The files come from the npm corpus the Go tests fetch (SSALENS_CORPUS_DIR, by default
// ~/.cache/ssalens-corpus); the tests skip when it is not there.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, it } from 'node:test';

import { Session, waitFor } from './harness';

const vsix = process.env.SSALENS_VSIX ?? path.resolve(__dirname, '../../../ssalens.vsix');
const corpusDir = process.env.SSALENS_CORPUS_DIR ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'ssalens-corpus');
const lodash = path.join(corpusDir, 'lodash@4.18.1', 'lodash.js');
const three = path.join(corpusDir, 'three@0.187.0', 'build', 'three.module.js');
const bin = path.resolve(process.env.SSALENS_BIN ?? path.resolve(__dirname, '../../../bin/ssalens'));
const source = '.editor-group-container.active .editor-instance';

/** The φ labels in a line, `x₃ ← φ(₁,₂)`, whatever comes right before them. */
const phiLabels = /[\p{L}_$][\p{L}\p{N}_$]* ← φ\([^)]*\)?/gu;

/** The hints in a rendered line: version subscripts and φ labels. */
function hintsIn(line: string): number {
  return (line.match(/[₀-₉]+(→[₀-₉]+)?/g) ?? []).length;
}

describe('ssalens on real files in code-server', { skip: !fs.existsSync(lodash) && 'the npm corpus is not fetched' }, () => {
  let session: Session | undefined;

  afterEach(async () => {
    await session?.close();
    session = undefined;
  });

  it('keeps the hints of other functions while a line of lodash is typed', async () => {
    // A small font, so that the end of baseMerge shows above baseMergeDeep and its comment.
    const s = (session = await Session.open({ vsix, files: [lodash], settings: { 'editor.fontSize': 7, 'editor.lineHeight': 9 } }));
    await s.openFile('lodash.js');
    const start = firstLineOf(lodash, 'function baseMergeDeep(');
    const header = 'function baseMergeDeep(';
    const outside = async () => {
      const lines = await s.editorLines(source);
      const at = lines.findIndex((l) => l.includes(header));
      return at < 0 ? undefined : lines.slice(0, at).reduce((n, l) => n + hintsIn(l), 0);
    };
    // A new line in baseMergeDeep, after the `return;` of its `if (stacked)`: the view centers
    // there, with the end of baseMerge above baseMergeDeep's first line.
    await s.goToLine(start + 7);
    await s.page.keyboard.press('End');
    await s.page.keyboard.press('Enter');
    const before = await waitFor('hints above baseMergeDeep', async () => {
      const n = await outside();
      return n && n > 3 ? n : undefined;
    }, 120000);
    await s.screenshot('vscode-typing-lodash-before.png');
    // Typed without closing brackets, as in Neovim without an autopairs plugin.
    const counts: number[] = [];
    for (const ch of 'if (srcValue) { newValue = `${key}` || {}; ') {
      await s.page.keyboard.type(ch);
      await new Promise((r) => setTimeout(r, 350));
      counts.push((await outside()) ?? -1);
    }
    await s.screenshot('vscode-typing-lodash.png');
    assert.deepEqual(counts, counts.map(() => before), `hints above baseMergeDeep while typing (before: ${before})`);
  });

  it("fits every φ hint of getInternalFormat in three.module.js at VS Code's default width", { skip: !fs.existsSync(three) && 'three is not fetched' }, async () => {
    // VS Code's own cap, which the extension turns off for JavaScript: a user may set it back.
    const settings = { '[javascript]': { 'editor.inlayHints.maximumLength': 43 } };
    const s = (session = await Session.open({ vsix, files: [three], settings }));
    await s.openFile('three.module.js');
    const lines = await waitFor('the φ hints of getInternalFormat', async () => {
      await s.goToLine(firstLineOf(three, 'function getInternalFormat(') + 42); // its if chains
      const ls = await s.editorLines(source);
      return ls.some((l) => l.includes('← φ(')) ? ls : undefined;
    }, 120000);
    await s.screenshot('vscode-phi-width.png');
    const phis = lines.flatMap((l) => l.match(/\S+ ← φ\([^)]*\)?/g) ?? []);
    assert.ok(phis.length >= 5, `φ hints on screen: ${phis.join(' | ')}`);
    const cut = phis.filter((p) => !p.endsWith(')'));
    assert.deepEqual(cut, [], 'no φ hint is cut at the default width');
  });

  it('shows every φ of a loop header in three.module.js', { skip: !fs.existsSync(three) && 'three is not fetched' }, async () => {
    const header = 'for ( let i = 0, l = lights.length; i < l; i ++ ) {';
    const line = firstLineOf(three, header);
    const annotated = execFileSync(bin, ['annotate', three], { encoding: 'utf8', maxBuffer: 1 << 28 }).split('\n')[line - 1];
    const want = annotated.match(phiLabels) ?? [];
    assert.ok(want.length > 10, `the server's φs of line ${line}: ${want.join(' | ')}`);
    const s = (session = await Session.open({ vsix, files: [three] }));
    await s.openFile('three.module.js');
    const shown = await waitFor(`the φ hints of line ${line}`, async () => {
      await s.goToLine(line);
      const l = (await s.editorLines(source)).find((t) => t.replace(/[₀-₉→]/g, '').includes(header));
      return l?.includes('← φ(') ? l : undefined;
    }, 120000);
    await s.screenshot('vscode-loop-phis.png');
    assert.deepEqual(shown.match(phiLabels), want, 'every φ of the loop header, none cut');
  });
});

/** The 1-based line of the first line of file that contains text. */
function firstLineOf(file: string, text: string): number {
  return fs.readFileSync(file, 'utf8').split('\n').findIndex((l) => l.includes(text)) + 1;
}
