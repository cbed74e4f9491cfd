// The live Show SSA view: one webview panel per source document, beside it, showing the
// function at the cursor of the editor that shows that document. It follows the cursor and the
// edits, marks the rows and blocks of the cursor's line, and a click on a row or a block reveals
// its source.
import * as vscode from 'vscode';
import { LanguageClient, RequestType, TextDocumentPositionParams } from 'vscode-languageclient/node';

import { FunctionGraph, renderView } from './render';

const FunctionGraphRequest = new RequestType<TextDocumentPositionParams, FunctionGraph | null, void>('ssalens/functionGraph');

const FOLLOW_DELAY = 120; // ms after the cursor stops, or an edit
const VIEW_TYPE = 'ssalens.ssaView';

/** The views, one per source document. */
export class SsaViews implements vscode.Disposable {
  private readonly views = new Map<string, SsaView>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly client: () => LanguageClient | undefined) {
    this.disposables.push(
      vscode.window.onDidChangeTextEditorSelection((e) => this.views.get(e.textEditor.document.uri.toString())?.follow(e.textEditor)),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length) {
          this.views.get(e.document.uri.toString())?.refresh();
        }
      }),
    );
  }

  /** Opens the view of editor's document beside it, or shows it if it is open. */
  show(editor: vscode.TextEditor): void {
    const key = editor.document.uri.toString();
    let view = this.views.get(key);
    if (!view) {
      view = new SsaView(editor, this.client, () => this.views.delete(key));
      this.views.set(key, view);
    }
    view.reveal(editor);
  }

  /** Asks every view again, as after a restart of the server. */
  refreshAll(): void {
    this.views.forEach((v) => v.refresh());
  }

  dispose(): void {
    this.views.forEach((v) => v.dispose());
    this.disposables.forEach((d) => d.dispose());
  }
}

class SsaView {
  private readonly panel: vscode.WebviewPanel;
  private editor: vscode.TextEditor;
  private timer: NodeJS.Timeout | undefined;
  private shown = ''; // the HTML last sent, to skip sending the same again
  private ask: vscode.CancellationTokenSource | undefined;

  constructor(
    editor: vscode.TextEditor,
    private readonly client: () => LanguageClient | undefined,
    onDispose: () => void,
  ) {
    this.editor = editor;
    const name = editor.document.uri.path.split('/').pop() ?? 'untitled';
    this.panel = vscode.window.createWebviewPanel(
      VIEW_TYPE,
      `SSA: ${name}`,
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      { enableScripts: true, retainContextWhenHidden: true, localResourceRoots: [] },
    );
    this.panel.webview.html = shell(this.panel.webview.cspSource);
    this.panel.webview.onDidReceiveMessage((m: { type: string; range?: number[] }) => {
      if (m.type === 'reveal' && m.range) {
        void this.revealSource(m.range);
      }
    });
    this.panel.onDidDispose(() => {
      clearTimeout(this.timer);
      this.ask?.cancel();
      onDispose();
    });
  }

  reveal(editor: vscode.TextEditor): void {
    this.editor = editor;
    this.panel.reveal(undefined, true);
    void this.update();
  }

  /** Follows the cursor of editor, once it stops. */
  follow(editor: vscode.TextEditor): void {
    this.editor = editor;
    this.postCursor();
    this.refresh();
  }

  refresh(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.update(), FOLLOW_DELAY);
  }

  dispose(): void {
    this.panel.dispose();
  }

  private postCursor(): void {
    void this.panel.webview.postMessage({ type: 'cursor', line: this.editor.selection.active.line });
  }

  private async update(): Promise<void> {
    const client = this.client();
    const doc = this.editor.document;
    let html: string;
    if (!client || !client.isRunning()) {
      html = '<p class="reason">The ssalens server is not running. Run "ssalens: Restart Server".</p>';
    } else {
      this.ask?.cancel();
      const ask = (this.ask = new vscode.CancellationTokenSource());
      const pos = this.editor.selection.active;
      try {
        const g = await client.sendRequest(
          FunctionGraphRequest,
          { textDocument: { uri: doc.uri.toString() }, position: { line: pos.line, character: pos.character } },
          ask.token,
        );
        if (ask.token.isCancellationRequested) {
          return;
        }
        const source = doc.uri.scheme === 'file' ? vscode.workspace.asRelativePath(doc.uri) : doc.uri.toString();
        html = g ? renderView(g, source) : `<p class="reason">No function at line ${pos.line + 1}.</p>`;
      } catch (err) {
        if (ask.token.isCancellationRequested) {
          return;
        }
        html = `<p class="reason">ssalens/functionGraph failed: ${String(err instanceof Error ? err.message : err)}</p>`;
      }
    }
    if (html !== this.shown) {
      this.shown = html;
      await this.panel.webview.postMessage({ type: 'render', html });
    }
    this.postCursor();
  }

  /** Shows the source of range (start line, character, end line, character) in the editor. */
  private async revealSource(r: number[]): Promise<void> {
    const range = new vscode.Range(r[0], r[1], r[2], r[3]);
    const editor = await vscode.window.showTextDocument(this.editor.document, { viewColumn: this.editor.viewColumn, preserveFocus: false });
    editor.selection = new vscode.Selection(range.start, range.start);
    editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }
}


/** The page: styles from the theme, and a script that inserts the content and reports clicks. */
function shell(cspSource: string): string {
  const nonce = [...Array(32)].map(() => Math.floor(Math.random() * 36).toString(36)).join('');
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${cspSource} 'unsafe-inline'; script-src 'nonce-${nonce}';">
<style>
html, body { height: 100%; margin: 0; overflow: hidden; }
body { font-family: var(--vscode-editor-font-family, monospace); font-size: var(--vscode-editor-font-size, 13px); color: var(--vscode-editor-foreground); padding: 0 8px; box-sizing: border-box; }
#content { height: 100%; display: flex; flex-direction: column; }
h1 { font-size: 1.1em; font-weight: normal; margin: 8px 0; flex: none; }
h1 .where, .preds, .ln { color: var(--vscode-descriptionForeground); }
/* The picture above the listing, each scrolling on its own; side by side when wide. */
.panes { flex: 1; min-height: 0; display: flex; flex-direction: column; gap: 8px; padding-bottom: 8px; }
.pane { overflow: auto; min-height: 0; }
.picture { flex: 0 1 auto; max-height: 50%; border: 1px solid var(--vscode-panel-border, #8884); }
.listing { flex: 1 1 0; }
@media (min-width: 1000px) { .panes { flex-direction: row; } .picture { max-height: none; flex: 1 1 50%; } .listing { flex: 1 1 50%; } }
svg.cfg { font-family: var(--vscode-editor-font-family, monospace); font-size: 12px; }
svg .block rect { fill: var(--vscode-editorWidget-background, #2224); stroke: var(--vscode-editorWidget-border, #888); }
svg .block.loop rect { stroke: var(--vscode-charts-blue, #4aa3ff); }
svg .block.current rect { stroke: var(--vscode-focusBorder, #f80); stroke-width: 2; }
svg .block { cursor: pointer; }
svg .block:hover rect { fill: var(--vscode-list-hoverBackground, #8883); }
svg text { fill: var(--vscode-editor-foreground); }
svg text.phi { fill: var(--vscode-charts-purple, #c586c0); }
svg .edge { fill: none; stroke: var(--vscode-descriptionForeground, #999); stroke-width: 1.2; }
svg .edge.back { stroke-dasharray: 4 3; stroke: var(--vscode-charts-blue, #4aa3ff); }
svg .arrowhead { fill: var(--vscode-descriptionForeground, #999); }
svg .edge-label { fill: var(--vscode-descriptionForeground, #999); font-size: 10px; }
.block { margin-bottom: 6px; }
.row { white-space: pre; cursor: pointer; padding: 0 4px; }
.row:hover { background: var(--vscode-list-hoverBackground); }
.row.current { background: var(--vscode-editor-lineHighlightBackground, #8883); outline: 1px solid var(--vscode-editor-lineHighlightBorder, transparent); }
.row.head { font-weight: bold; }
.row.phi .code { color: var(--vscode-charts-purple, #c586c0); }
.ln { display: inline-block; width: 6ch; text-align: right; margin-right: 1ch; }
.reason { color: var(--vscode-descriptionForeground); }
</style></head>
<body><div id="content"><p class="reason">Asking the server…</p></div>
<script nonce="${nonce}">
const vscode = acquireVsCodeApi();
const content = document.getElementById('content');
let line = -1;
function mark(scroll) {
  for (const el of content.querySelectorAll('[data-range]')) {
    const [l1, , l2] = el.dataset.range.split(',').map(Number);
    const isRow = el.classList.contains('row') && !el.classList.contains('head');
    el.classList.toggle('current', isRow ? l1 === line : l1 <= line && line <= l2);
  }
  if (scroll) {
    // Bring what the cursor is on into view, in the picture and in the listing.
    content.querySelector('svg .block.current')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    content.querySelector('.row.current:not(.head)')?.scrollIntoView({ block: 'nearest' });
  }
}
window.addEventListener('message', (e) => {
  const m = e.data;
  const moved = m.type === 'render' || (m.type === 'cursor' && m.line !== line);
  if (m.type === 'render') { content.innerHTML = m.html; }
  if (m.type === 'cursor') { line = m.line; }
  mark(moved);
});
content.addEventListener('click', (e) => {
  const el = e.target.closest('[data-range]');
  if (!el) { return; }
  const block = el.closest('[data-block]');
  if (block && el.tagName !== 'DIV') {
    document.getElementById('bb' + block.dataset.block)?.scrollIntoView({ block: 'nearest' });
  }
  vscode.postMessage({ type: 'reveal', range: el.dataset.range.split(',').map(Number) });
});
</script></body></html>`;
}
