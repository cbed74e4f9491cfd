import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';

import { documentLabel, DocumentStatuses, SHOW_UNRENAMED, StatusParams } from '../../src/documentStatus';

const status = (uri: string, analyzing: boolean, notAnalyzed = 0): StatusParams => ({
  textDocument: { uri },
  version: 1,
  analyzing,
  notAnalyzed,
});

describe('document status', () => {
  it('keeps the last status of each document until it is closed or the server stops', () => {
    const s = new DocumentStatuses();
    assert.equal(s.get('file:///a.js'), undefined, 'nothing before the server tells');
    s.update(status('file:///a.js', true));
    s.update(status('file:///b.js', false, 2));
    assert.deepEqual(s.get('file:///a.js'), { analyzing: true, notAnalyzed: 0, kept: 0 });
    s.update(status('file:///a.js', false, 3));
    assert.deepEqual(s.get('file:///a.js'), { analyzing: false, notAnalyzed: 3, kept: 0 });
    assert.deepEqual(s.get('file:///b.js'), { analyzing: false, notAnalyzed: 2, kept: 0 });
    s.forget('file:///a.js');
    assert.equal(s.get('file:///a.js'), undefined, 'closed');
    assert.deepEqual(s.get('file:///b.js'), { analyzing: false, notAnalyzed: 2, kept: 0 }, 'the other stays');
    s.clear();
    assert.equal(s.get('file:///b.js'), undefined, 'the server stopped');
  });

  it('says analyzing while the server analyzes, whatever the count before', () => {
    const l = documentLabel({ analyzing: true, notAnalyzed: 4, kept: 0 });
    assert.equal(l?.text, '$(sync~spin) ssalens: analyzing…');
    assert.match(l!.tooltip, /analyzing this file/);
  });

  it('counts the functions not analyzed and points to the command that lists them', () => {
    const three = documentLabel({ analyzing: false, notAnalyzed: 3, kept: 0 });
    assert.equal(three?.text, '$(symbol-variable) ssalens · 3 not analyzed');
    assert.match(three!.tooltip, /^3 functions of this file are not analyzed/);
    assert.match(three!.tooltip, /\[Why Variables Have No Versions\]\(command:ssalens\.showUnrenamed\)/);
    assert.match(documentLabel({ analyzing: false, notAnalyzed: 1, kept: 0 })!.tooltip, /^1 function of this file is not analyzed/);
    const pkg = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8'));
    const declared = pkg.contributes.commands.find((c: { command: string }) => c.command === SHOW_UNRENAMED);
    assert.equal(declared?.title, 'Why Variables Have No Versions', 'the command the tooltip names');
  });

  it('says that the functions a syntax error breaks show the last version that parsed', () => {
    const s = new DocumentStatuses();
    s.update({ ...status('file:///a.js', false, 1), kept: 1 });
    assert.deepEqual(s.get('file:///a.js'), { analyzing: false, notAnalyzed: 1, kept: 1 });
    const one = documentLabel(s.get('file:///a.js'));
    assert.equal(one?.text, '$(symbol-variable) ssalens · 1 not analyzed');
    assert.match(one!.tooltip, /^1 function of this file is not analyzed: a syntax error breaks it, and it shows the last version that parsed\. /);
    assert.match(documentLabel({ analyzing: false, notAnalyzed: 2, kept: 2 })!.tooltip, /: syntax errors break them, and they show the last version that parsed\. /);
    assert.match(documentLabel({ analyzing: false, notAnalyzed: 3, kept: 1 })!.tooltip,
      /: their variables have no SSA versions, but for the 1 that syntax errors break, which show the last version that parsed\. /);
  });

  it('says nothing of a document analyzed in full, or not reported on yet', () => {
    assert.equal(documentLabel({ analyzing: false, notAnalyzed: 0, kept: 0 }), undefined);
    assert.equal(documentLabel(undefined), undefined);
  });
});
