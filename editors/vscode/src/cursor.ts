// Tells the server where the cursor is (ssalens/didChangeCursor), for inlay hints focused on the
// function or the variable at the cursor (ssalens.inlayHints.scope).
import * as vscode from 'vscode';
import { LanguageClient, NotificationType, TextDocumentPositionParams } from 'vscode-languageclient/node';

const DidChangeCursorNotification = new NotificationType<TextDocumentPositionParams>('ssalens/didChangeCursor');

const DELAY = 60; // ms: a burst of moves sends only the last

/** The schemes of the documents the client synchronizes with the server. */
export const SCHEMES = ['file', 'untitled'];

export class CursorReporter implements vscode.Disposable {
  private timer: NodeJS.Timeout | undefined;
  private readonly disposables: vscode.Disposable[];

  constructor(
    private readonly client: () => LanguageClient | undefined,
    private readonly languages: readonly string[],
  ) {
    this.disposables = [
      vscode.window.onDidChangeTextEditorSelection((e) => this.schedule(e.textEditor)),
      vscode.window.onDidChangeActiveTextEditor((e) => e && this.schedule(e)),
    ];
  }

  /** Sends the cursor of the active editor now, as after the server started. */
  sendActive(): void {
    const e = vscode.window.activeTextEditor;
    if (e) {
      this.send(e);
    }
  }

  private schedule(editor: vscode.TextEditor): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.send(editor), DELAY);
  }

  private send(editor: vscode.TextEditor): void {
    const client = this.client();
    const doc = editor.document;
    if (!client?.isRunning() || !this.languages.includes(doc.languageId) || !SCHEMES.includes(doc.uri.scheme)) {
      return;
    }
    const p = editor.selection.active;
    void client.sendNotification(DidChangeCursorNotification, {
      textDocument: { uri: doc.uri.toString() },
      position: { line: p.line, character: p.character },
    });
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.disposables.forEach((d) => d.dispose());
  }
}
