// Drives the real Go server over stdio with vscode-languageserver-protocol as the client, the
// same library vscode-languageclient uses, and checks what an editor would show.
//
// The binary is $SSALENS_BIN, else one built from ../../cmd/ssalens into out/.
import * as assert from 'node:assert/strict';
import * as cp from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';

import {
  createProtocolConnection,
  DefinitionRequest,
  DidChangeConfigurationNotification,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExecuteCommandRequest,
  ExitNotification,
  HoverRequest,
  InitializedNotification,
  InitializeRequest,
  InlayHint,
  InlayHintRefreshRequest,
  InlayHintRequest,
  NotificationType,
  Location,
  MarkupContent,
  ProtocolConnection,
  PublishDiagnosticsNotification,
  PublishDiagnosticsParams,
  ReferencesRequest,
  RequestType,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  DocumentHighlightRequest,
  DiagnosticTag,
} from 'vscode-languageserver-protocol/node';

const root = path.resolve(__dirname, '../../..'); // editors/vscode
const fixture = path.resolve(root, '../testdata/sample.js');
const uri = pathToFileURL(fixture).href;
const text = fs.readFileSync(fixture, 'utf8');

const ShowSsaRequest = new RequestType<
  { textDocument: { uri: string }; position: { line: number; character: number } },
  { name: string; text: string } | null,
  void
>('ssalens/showSSA');

function serverBinary(): string {
  if (process.env.SSALENS_BIN) {
    return process.env.SSALENS_BIN;
  }
  const bin = path.join(root, 'out', 'ssalens-test');
  cp.execFileSync('go', ['build', '-o', bin, '../../cmd/ssalens'], { cwd: root, stdio: 'inherit' });
  return bin;
}

/** The position of the end of the `nth` occurrence of `needle` on 0-based `line`. */
function endOf(line: number, needle: string, nth = 0): { line: number; character: number } {
  const l = text.split('\n')[line];
  let at = -1;
  for (let i = 0; i <= nth; i++) {
    at = l.indexOf(needle, at + 1);
    assert.notEqual(at, -1, `${needle} #${nth} on line ${line}: ${l}`);
  }
  return { line, character: at + needle.length };
}
const startOf = (line: number, needle: string, nth = 0) => {
  const p = endOf(line, needle, nth);
  return { line, character: p.character - needle.length };
};

function label(h: InlayHint): string {
  return typeof h.label === 'string' ? h.label : h.label.map((p) => p.value).join('');
}

describe('ssalens server over stdio', () => {
  let proc: cp.ChildProcessWithoutNullStreams;
  let conn: ProtocolConnection;
  let stderr = '';
  let refreshes = 0;
  const diagnostics: PublishDiagnosticsParams[] = [];
  let exited: Promise<number | null>;

  before(async () => {
    proc = cp.spawn(serverBinary(), ['serve', '--stdio'], { stdio: 'pipe' });
    proc.stderr.on('data', (d) => (stderr += d));
    exited = new Promise((resolve) => proc.on('exit', (code) => resolve(code)));
    conn = createProtocolConnection(new StreamMessageReader(proc.stdout), new StreamMessageWriter(proc.stdin));
    conn.onRequest(InlayHintRefreshRequest.type, () => {
      refreshes++;
      return null;
    });
    conn.onNotification(PublishDiagnosticsNotification.type, (p) => diagnostics.push(p));
    conn.listen();
  });

  after(() => {
    conn?.dispose();
    if (proc && proc.exitCode === null) {
      proc.kill();
    }
  });

  it('initializes with the capabilities the extension uses', async () => {
    const result = await conn.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: pathToFileURL(path.dirname(fixture)).href,
      capabilities: {
        general: { positionEncodings: ['utf-16'] },
        workspace: { inlayHint: { refreshSupport: true }, configuration: false },
        textDocument: {
          inlayHint: { resolveSupport: { properties: ['tooltip', 'label.location'] } },
          hover: { contentFormat: ['markdown', 'plaintext'] },
        },
      },
      initializationOptions: { ssalens: { inlayHints: { versions: true, phis: true } } },
      workspaceFolders: null,
    });
    const caps = result.capabilities as typeof result.capabilities & { positionEncoding?: string };
    assert.ok(caps.inlayHintProvider, 'inlayHintProvider');
    assert.ok(caps.hoverProvider, 'hoverProvider');
    assert.ok(caps.definitionProvider, 'definitionProvider');
    assert.ok(caps.referencesProvider, 'referencesProvider');
    assert.ok(caps.documentHighlightProvider, 'documentHighlightProvider');
    assert.deepEqual(caps.executeCommandProvider?.commands, ['ssalens.showSSA']);
    assert.equal(caps.positionEncoding ?? 'utf-16', 'utf-16');
    assert.equal(result.serverInfo?.name, 'ssalens');
    await conn.sendNotification(InitializedNotification.type, {});
    await conn.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId: 'javascript', version: 1, text },
    });
  });

  it('shows version and φ inlay hints with exact labels', async () => {
    const lines = text.split('\n');
    const hints = await conn.sendRequest(InlayHintRequest.type, {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: lines.length, character: 0 } },
    });
    assert.ok(hints && hints.length > 0, 'hints');
    const got = hints.map((h) => `${h.position.line}:${h.position.character} ${label(h)}`);
    const want = [
      `${endOf(1, 'c').line}:${endOf(1, 'pick(c').character} ₁`, // pick(c₁)
      `2:${endOf(2, 'let x').character} ₁`,
      `3:${endOf(3, 'if (c').character} ₁`,
      `4:${endOf(4, 'x').character} ₂`,
      `5:${endOf(5, '}').character} x₃ ← φ(₁,₂)`,
      `6:${endOf(6, 'return x').character} ₃`,
      `9:${endOf(9, 'count(n').character} ₁`,
      `10:${endOf(10, 'let i').character} ₁`,
      `11:${endOf(11, 'while (i').character} ₂`,
      `11:${endOf(11, '< n').character} ₁`,
      `11:${endOf(11, '{').character} i₂ ← φ(₁,₃)`,
      `12:${endOf(12, 'i').character} ₂→₃`,
      `14:${endOf(14, 'return i').character} ₂`,
      `18:${endOf(18, 'let y').character} ₁`,
      `19:${endOf(19, 'y').character} ₂`,
      `20:${endOf(20, 'return y').character} ₂`,
    ];
    assert.deepEqual(got, want);

    const phi = hints.find((h) => label(h) === 'x₃ ← φ(₁,₂)')!;
    assert.ok(Array.isArray(phi.label), 'φ hints have label parts');
    assert.equal(phi.paddingLeft, true, 'a φ hint stands apart from the code before it');
    const linked = (phi.label as { value: string; location?: Location }[]).filter((p) => p.location);
    assert.deepEqual(
      linked.map((p) => [p.value, p.location!.uri, p.location!.range.start.line]),
      [
        ['x₃', uri, 5],
        ['₁', uri, 2],
        ['₂', uri, 4],
      ],
      'φ operands link to their definitions',
    );
  });

  it('answers only the requested range', async () => {
    const hints = await conn.sendRequest(InlayHintRequest.type, {
      textDocument: { uri },
      range: { start: { line: 9, character: 0 }, end: { line: 15, character: 0 } },
    });
    assert.ok(hints);
    assert.ok(hints.every((h) => h.position.line >= 9 && h.position.line <= 15), JSON.stringify(hints));
    assert.ok(hints.some((h) => label(h) === 'i₂ ← φ(₁,₃)'));
  });

  it('hovers a φ value with its operands', async () => {
    const hover = await conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: startOf(6, 'x') });
    assert.ok(hover, 'hover');
    const md = (hover.contents as MarkupContent).value;
    assert.equal((hover.contents as MarkupContent).kind, 'markdown');
    assert.match(md, /x₃/);
    assert.match(md, /φ/);
    assert.match(md, /`x₁`/);
    assert.match(md, /`x₂`/);
    assert.ok(md.indexOf('`x₁`') < md.indexOf('`x₂`'), 'operands in predecessor order');
  });

  it('goes to the definitions that reach a φ', async () => {
    const defs = (await conn.sendRequest(DefinitionRequest.type, {
      textDocument: { uri },
      position: startOf(6, 'x'),
    })) as Location[];
    assert.deepEqual(
      defs.map((d) => [d.uri, d.range.start.line, d.range.start.character]).sort(),
      [
        [uri, 2, startOf(2, 'x').character],
        [uri, 4, startOf(4, 'x').character],
      ],
    );
  });

  it('finds the references of one SSA value', async () => {
    const refs = await conn.sendRequest(ReferencesRequest.type, {
      textDocument: { uri },
      position: startOf(11, 'i <'), // i₂ in the loop test
      context: { includeDeclaration: false },
    });
    const lines = (refs ?? []).map((r) => `${r.range.start.line}:${r.range.start.character}`).sort();
    assert.deepEqual(lines, [`11:${startOf(11, 'i <').character}`, `12:${startOf(12, 'i').character}`, `14:${startOf(14, 'i').character}`]);
  });

  it('highlights a definition as Write and its uses as Read', async () => {
    const hl = await conn.sendRequest(DocumentHighlightRequest.type, { textDocument: { uri }, position: startOf(19, 'y') });
    assert.deepEqual(
      (hl ?? []).map((h) => [h.range.start.line, h.kind]).sort(),
      [
        [19, 3],
        [20, 2],
      ],
    );
  });

  it('publishes the useless assignment as an Unnecessary hint', async () => {
    const deadline = Date.now() + 5000;
    while (!diagnostics.some((d) => d.uri === uri) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const last = diagnostics.filter((d) => d.uri === uri).pop();
    assert.ok(last, 'diagnostics were published');
    const useless = last.diagnostics.filter((d) => d.tags?.includes(DiagnosticTag.Unnecessary));
    assert.equal(useless.length, 1, JSON.stringify(last.diagnostics));
    assert.equal(useless[0].range.start.line, 18);
    assert.equal(useless[0].severity, 4);
  });

  it('prints the SSA of the function at a position', async () => {
    const r = await conn.sendRequest(ShowSsaRequest, { textDocument: { uri }, position: { line: 3, character: 2 } });
    assert.ok(r);
    assert.equal(r.name, 'pick');
    assert.match(r.text, /phi\(/);
    assert.match(r.text, /x\$3/);
    const none = await conn.sendRequest(ShowSsaRequest, { textDocument: { uri }, position: { line: 0, character: 3 } });
    assert.ok(none === null || none.name === '<module>' || typeof none.name === 'string');
    const viaCommand = (await conn.sendRequest(ExecuteCommandRequest.type, {
      command: 'ssalens.showSSA',
      arguments: [{ textDocument: { uri }, position: { line: 12, character: 4 } }],
    })) as { name: string; text: string };
    assert.equal(viaCommand.name, 'count');
    assert.match(viaCommand.text, /i\$2: phi\(/);
  });

  it('follows edits', async () => {
    // Insert a line at the top: every hint moves down one line.
    await conn.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version: 2 },
      contentChanges: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '\n' }],
    });
    const hints = await conn.sendRequest(InlayHintRequest.type, {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: 30, character: 0 } },
    });
    assert.ok(hints?.some((h) => h.position.line === 6 && label(h) === 'x₃ ← φ(₁,₂)'));
  });

  it('applies settings from workspace/didChangeConfiguration and asks for a refresh', async () => {
    const before = refreshes;
    await conn.sendNotification(DidChangeConfigurationNotification.type, {
      settings: { ssalens: { inlayHints: { versions: false, phis: true } } },
    });
    const deadline = Date.now() + 5000;
    while (refreshes === before && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.ok(refreshes > before, 'workspace/inlayHint/refresh was sent');
    const hints = await conn.sendRequest(InlayHintRequest.type, {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: 30, character: 0 } },
    });
    // Without version hints, a φ names the lines its operands are defined on.
    assert.deepEqual(hints?.map(label), ['x ← φ(L4,L6)', 'i ← φ(L12,L14)']);
  });

  it('focuses the hints on the function at the cursor the client reports', async () => {
    const before = refreshes;
    await conn.sendNotification(DidChangeConfigurationNotification.type, {
      settings: { ssalens: { inlayHints: { versions: true, phis: true, scope: 'function' } } },
    });
    await conn.sendNotification(new NotificationType<unknown>('ssalens/didChangeCursor'), {
      textDocument: { uri },
      position: { line: 12, character: 4 }, // i++ in count, a line down since the edit
    });
    const deadline = Date.now() + 5000;
    while (refreshes < before + 2 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const hints = await conn.sendRequest(InlayHintRequest.type, {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: 30, character: 0 } },
    });
    const lines = new Set(hints?.map((h) => h.position.line));
    assert.deepEqual([...lines], [10, 11, 12, 13, 15], 'the lines of count');
  });

  it('shuts down and exits cleanly', async () => {
    await conn.sendRequest(ShutdownRequest.type);
    await conn.sendNotification(ExitNotification.type);
    const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('timeout'), 5000))]);
    assert.equal(code, 0, `exit code; stderr:\n${stderr}`);
  });
});
