import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';

import { documentLabel, DocumentStatuses, SHOW_UNRENAMED, StatusParams } from '../../src/documentStatus';

const status = (uri: string, analysing: boolean, notAnalyzed = 0): StatusParams => ({
  textDocument: { uri },
  version: 1,
  analysing,
  notAnalyzed,
});

describe('document status', () => {
  it('keeps the last status of each document until it is closed or the server stops', () => {
    const s = new DocumentStatuses();
    assert.equal(s.get('file:///a.js'), undefined, 'nothing before the server tells');
    s.update(status('file:///a.js', true));
    s.update(status('file:///b.js', false, 2));
    assert.deepEqual(s.get('file:///a.js'), { analysing: true, notAnalyzed: 0 });
    s.update(status('file:///a.js', false, 3));
    assert.deepEqual(s.get('file:///a.js'), { analysing: false, notAnalyzed: 3 });
    assert.deepEqual(s.get('file:///b.js'), { analysing: false, notAnalyzed: 2 });
    s.forget('file:///a.js');
    assert.equal(s.get('file:///a.js'), undefined, 'closed');
    assert.deepEqual(s.get('file:///b.js'), { analysing: false, notAnalyzed: 2 }, 'the other stays');
    s.clear();
    assert.equal(s.get('file:///b.js'), undefined, 'the server stopped');
  });

  it('says analysing while the server analyses, whatever the count before', () => {
    const l = documentLabel({ analysing: true, notAnalyzed: 4 });
    assert.equal(l?.text, '$(sync~spin) ssalens: analysing…');
    assert.match(l!.tooltip, /analysing this file/);
  });

  it('counts the functions not analysed and points to the command that lists them', () => {
    const three = documentLabel({ analysing: false, notAnalyzed: 3 });
    assert.equal(three?.text, '$(symbol-variable) ssalens · 3 not analysed');
    assert.match(three!.tooltip, /^3 functions of this file are not analysed/);
    assert.match(three!.tooltip, /\[Why Variables Have No Versions\]\(command:ssalens\.showUnrenamed\)/);
    assert.match(documentLabel({ analysing: false, notAnalyzed: 1 })!.tooltip, /^1 function of this file is not analysed/);
    const pkg = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8'));
    const declared = pkg.contributes.commands.find((c: { command: string }) => c.command === SHOW_UNRENAMED);
    assert.equal(declared?.title, 'Why Variables Have No Versions', 'the command the tooltip names');
  });

  it('says nothing of a document analysed in full, or not reported on yet', () => {
    assert.equal(documentLabel({ analysing: false, notAnalyzed: 0 }), undefined);
    assert.equal(documentLabel(undefined), undefined);
  });
});
