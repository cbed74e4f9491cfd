// The ssalens VS Code extension: starts the ssalens language server for JavaScript and adds the
// "Show SSA" view, a status-bar item and a few commands. Logic that needs no VS Code lives in
// serverPath.ts, settings.ts and ssaUri.ts, which the unit tests load under plain Node.
import * as os from 'node:os';
import * as vscode from 'vscode';
import {
  InlayHintRequest,
  LanguageClient,
  LanguageClientOptions,
  RequestType,
  ServerOptions,
  State,
  TextDocumentIdentifier,
  Position as LspPosition,
} from 'vscode-languageclient/node';

import { resolveServerPath } from './serverPath';
import { initializationOptions, needsRestart, readServerSettings, SETTING_KEYS, toggledInlayHints } from './settings';
import { decodeSsaUri, encodeSsaUri, shiftPosition, SSA_SCHEME, SsaTarget } from './ssaUri';

interface ShowSsaParams {
  textDocument: TextDocumentIdentifier;
  position: LspPosition;
}
interface ShowSsaResult {
  name: string;
  text: string;
}
const ShowSsaRequest = new RequestType<ShowSsaParams, ShowSsaResult | null, void>('ssalens/showSSA');

const JS_LANGUAGES = ['javascript', 'javascriptreact'];

let ctx: Ctx | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  ctx = new Ctx(context);
  await ctx.start();
}

export async function deactivate(): Promise<void> {
  await ctx?.stop();
  ctx = undefined;
}

/** Holds the client and everything that outlives one server process. */
class Ctx {
  private client: LanguageClient | undefined;
  private readonly output: vscode.OutputChannel;
  private readonly traceOutput: vscode.OutputChannel;
  private readonly status: vscode.StatusBarItem;
  private readonly ssa: SsaDocuments;

  constructor(private readonly context: vscode.ExtensionContext) {
    this.output = vscode.window.createOutputChannel('ssalens');
    this.traceOutput = vscode.window.createOutputChannel('ssalens (trace)');
    this.status = vscode.window.createStatusBarItem('ssalens.status', vscode.StatusBarAlignment.Left, 0);
    this.status.name = 'ssalens';
    this.status.command = 'ssalens.showSSAForFunction';
    this.ssa = new SsaDocuments(() => this.client);
    context.subscriptions.push(
      this.output,
      this.traceOutput,
      this.status,
      this.ssa,
      vscode.workspace.registerTextDocumentContentProvider(SSA_SCHEME, this.ssa),
      vscode.commands.registerCommand('ssalens.showSSAForFunction', () => this.showSsa()),
      vscode.commands.registerCommand('ssalens.restartServer', () => this.restart()),
      vscode.commands.registerCommand('ssalens.toggleInlayHints', () => this.toggleInlayHints()),
      vscode.window.onDidChangeActiveTextEditor(() => this.updateStatusVisibility()),
      vscode.workspace.onDidChangeConfiguration((e) => this.onConfigurationChanged(e)),
    );
    this.setStatus('stopped');
    this.updateStatusVisibility();
  }

  async start(): Promise<void> {
    const config = vscode.workspace.getConfiguration('ssalens');
    const resolved = resolveServerPath({
      configured: config.get<string | null>('server.path'),
      envPath: process.env.PATH,
      extensionPath: this.context.extensionPath,
      homeDir: os.homedir(),
      workspaceFolder: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
    });
    if (!resolved.ok) {
      this.setStatus('error', resolved.message);
      this.output.appendLine(resolved.message);
      void vscode.window.showErrorMessage(resolved.message, 'Open Settings').then((choice) => {
        if (choice === 'Open Settings') {
          void vscode.commands.executeCommand('workbench.action.openSettings', 'ssalens.server.path');
        }
      });
      return;
    }
    this.output.appendLine(`Starting ${resolved.path} serve (found via ${resolved.source})`);

    const extraEnv = config.get<Record<string, string> | null>('server.extraEnv') ?? {};
    const serverOptions: ServerOptions = {
      command: resolved.path,
      args: ['serve'],
      options: { env: { ...process.env, ...extraEnv } },
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: JS_LANGUAGES.flatMap((language) => [
        { scheme: 'file', language },
        { scheme: 'untitled', language },
      ]),
      synchronize: { configurationSection: 'ssalens' },
      initializationOptions: () =>
        initializationOptions(readServerSettings((k) => vscode.workspace.getConfiguration('ssalens').get(k))),
      outputChannel: this.output,
      traceOutputChannel: this.traceOutput,
    };
    const client = new LanguageClient('ssalens', 'ssalens', serverOptions, clientOptions);
    this.client = client;
    client.onDidChangeState((e) => {
      if (this.client !== client) {
        return;
      }
      if (e.newState === State.Running) {
        this.setStatus('running', `${resolved.path} (${resolved.source})`);
      } else if (e.newState === State.Starting) {
        this.setStatus('starting');
      } else {
        this.setStatus('stopped');
      }
    });
    this.setStatus('starting');
    try {
      await client.start();
    } catch (err) {
      const msg = `ssalens: the server failed to start: ${err instanceof Error ? err.message : String(err)}`;
      this.setStatus('error', msg);
      void vscode.window.showErrorMessage(msg);
    }
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client) {
      try {
        await client.stop(2000);
      } catch {
        // it may never have started
      }
      await client.dispose();
    }
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
    this.ssa.refreshAll();
  }

  private async toggleInlayHints(): Promise<void> {
    const config = vscode.workspace.getConfiguration('ssalens');
    const next = toggledInlayHints(readServerSettings((k) => config.get(k)));
    const target = (key: string) => {
      const i = config.inspect(key);
      return i?.workspaceFolderValue !== undefined
        ? vscode.ConfigurationTarget.WorkspaceFolder
        : i?.workspaceValue !== undefined
          ? vscode.ConfigurationTarget.Workspace
          : vscode.ConfigurationTarget.Global;
    };
    await config.update(SETTING_KEYS.versions, next.versions, target(SETTING_KEYS.versions));
    await config.update(SETTING_KEYS.phis, next.phis, target(SETTING_KEYS.phis));
    vscode.window.setStatusBarMessage(`ssalens: inlay hints ${next.versions ? 'on' : 'off'}`, 3000);
  }

  private onConfigurationChanged(e: vscode.ConfigurationChangeEvent): void {
    if (needsRestart((s) => e.affectsConfiguration(s))) {
      void this.restart();
      return;
    }
    if (e.affectsConfiguration('ssalens.inlayHints')) {
      // The server is told through workspace/didChangeConfiguration and should ask for a refresh;
      // ask for one too in case it does not.
      setTimeout(() => this.refreshInlayHints(), 200);
    }
  }

  private refreshInlayHints(): void {
    const feature = this.client?.getFeature(InlayHintRequest.method) as unknown as
      | { getAllProviders?: () => Iterable<{ onDidChangeInlayHints: vscode.EventEmitter<void> }> }
      | undefined;
    for (const p of feature?.getAllProviders?.() ?? []) {
      p.onDidChangeInlayHints.fire();
    }
  }

  private async showSsa(): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    if (!editor) {
      void vscode.window.showInformationMessage('ssalens: open a JavaScript file and put the cursor in a function.');
      return;
    }
    if (editor.document.uri.scheme === SSA_SCHEME) {
      this.ssa.refresh(editor.document.uri);
      return;
    }
    if (!JS_LANGUAGES.includes(editor.document.languageId)) {
      void vscode.window.showInformationMessage('ssalens: Show SSA works in JavaScript files.');
      return;
    }
    const pos = editor.selection.active;
    const parts = encodeSsaUri({ source: editor.document.uri.toString(), line: pos.line, character: pos.character });
    const uri = vscode.Uri.from(parts);
    const doc = await vscode.workspace.openTextDocument(uri);
    if (doc.languageId !== 'ssalens-ssa') {
      await vscode.languages.setTextDocumentLanguage(doc, 'ssalens-ssa');
    }
    await vscode.window.showTextDocument(doc, {
      viewColumn: vscode.ViewColumn.Beside,
      preserveFocus: true,
      preview: false,
    });
  }

  private setStatus(state: 'starting' | 'running' | 'stopped' | 'error', detail?: string): void {
    const s = this.status;
    s.backgroundColor = undefined;
    switch (state) {
      case 'starting':
        s.text = '$(sync~spin) ssalens';
        s.tooltip = 'ssalens: starting the server…';
        break;
      case 'running':
        s.text = '$(symbol-variable) ssalens';
        s.tooltip = new vscode.MarkdownString(
          `ssalens is running${detail ? `: \`${detail}\`` : ''}\n\nClick to show the SSA of the function at the cursor.`,
        );
        break;
      case 'stopped':
        s.text = '$(circle-slash) ssalens';
        s.tooltip = 'ssalens: the server is stopped. Run "ssalens: Restart Server".';
        s.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
        break;
      case 'error':
        s.text = '$(error) ssalens';
        s.tooltip = detail ?? 'ssalens: the server is not running.';
        s.backgroundColor = new vscode.ThemeColor('statusBarItem.errorBackground');
        break;
    }
  }

  private updateStatusVisibility(): void {
    const doc = vscode.window.activeTextEditor?.document;
    if (doc && (JS_LANGUAGES.includes(doc.languageId) || doc.uri.scheme === SSA_SCHEME)) {
      this.status.show();
    } else {
      this.status.hide();
    }
  }
}

/**
 * The read-only "Show SSA" documents: a TextDocumentContentProvider on the ssalens-ssa scheme whose
 * content is the server's answer to ssalens/showSSA, refreshed as the source document changes.
 */
class SsaDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  /** The position each open SSA document follows, moved through edits of its source. */
  private readonly positions = new Map<string, SsaTarget>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly client: () => LanguageClient | undefined) {
    this.disposables.push(
      vscode.workspace.onDidChangeTextDocument((e) => this.onSourceChanged(e)),
      vscode.workspace.onDidCloseTextDocument((d) => {
        if (d.uri.scheme === SSA_SCHEME) {
          this.positions.delete(d.uri.toString());
        }
      }),
    );
  }

  dispose(): void {
    for (const t of this.timers.values()) {
      clearTimeout(t);
    }
    this.disposables.forEach((d) => d.dispose());
    this.changed.dispose();
  }

  refresh(uri: vscode.Uri): void {
    this.changed.fire(uri);
  }

  refreshAll(): void {
    for (const key of this.positions.keys()) {
      this.changed.fire(vscode.Uri.parse(key));
    }
  }

  private onSourceChanged(e: vscode.TextDocumentChangeEvent): void {
    if (e.contentChanges.length === 0) {
      return;
    }
    const source = e.document.uri.toString();
    for (const [key, target] of this.positions) {
      if (target.source !== source) {
        continue;
      }
      const moved = shiftPosition(target, e.contentChanges);
      this.positions.set(key, { ...target, ...moved });
      clearTimeout(this.timers.get(key));
      this.timers.set(
        key,
        setTimeout(() => {
          this.timers.delete(key);
          this.changed.fire(vscode.Uri.parse(key));
        }, 300),
      );
    }
  }

  async provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    const key = uri.toString();
    let target = this.positions.get(key);
    if (!target) {
      target = decodeSsaUri({ scheme: uri.scheme, path: uri.path, query: uri.query });
      if (!target) {
        return `// ssalens: not an SSA document: ${key}\n`;
      }
      this.positions.set(key, target);
    }
    const client = this.client();
    if (!client || !client.isRunning()) {
      return '// ssalens: the server is not running. Run "ssalens: Restart Server".\n';
    }
    const source = vscode.Uri.parse(target.source);
    const shown = source.scheme === 'file' ? vscode.workspace.asRelativePath(source) : target.source;
    try {
      const result = await client.sendRequest(
        ShowSsaRequest,
        { textDocument: { uri: target.source }, position: { line: target.line, character: target.character } },
        token,
      );
      if (!result) {
        return `// ssalens: no function at ${shown}:${target.line + 1}:${target.character + 1}\n`;
      }
      const text = result.text.endsWith('\n') ? result.text : result.text + '\n';
      return `// SSA of ${result.name} (${shown}:${target.line + 1})\n\n${text}`;
    } catch (err) {
      return `// ssalens: ssalens/showSSA failed: ${err instanceof Error ? err.message : String(err)}\n`;
    }
  }
}
