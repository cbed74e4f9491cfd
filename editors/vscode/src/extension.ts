// The ssalens VS Code extension: starts the ssalens language server for JavaScript and adds the
// live Show SSA view (ssaView/), ssalens' own navigation lists (lists.ts), the cursor the focused
// hints follow (cursor.ts), a status-bar item and a few commands. Logic that needs no VS Code
// lives in serverPath.ts, settings.ts, documentStatus.ts and ssaView/layout.ts and render.ts,
// which the unit tests load under plain Node.
import * as os from 'node:os';
import * as vscode from 'vscode';
import { InlayHintRequest, LanguageClient, LanguageClientOptions, ServerOptions, State } from 'vscode-languageclient/node';

import { CursorReporter, SCHEMES } from './cursor';
import { documentLabel, DocumentStatuses, SHOW_UNRENAMED, STATUS_METHOD, StatusParams } from './documentStatus';
import { listAtCursor, ReachingDefinitionsRequest, showItems, UnrenamedRequest, ValueReferencesRequest } from './lists';
import { resolveServerPath } from './serverPath';
import { initializationOptions, needsRestart, readServerSettings, Scope, SETTING_KEYS, toggledInlayHints } from './settings';
import { SsaViews } from './ssaView/panel';

// The languageIds the server analyzes, which the document selector, the commands' enablement
// (the context key ssalens.languages), the status item and the cursor reports follow.
const LANGUAGES = ['javascript', 'javascriptreact', 'typescript', 'typescriptreact'];

let ctx: Ctx | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  ctx = new Ctx(context);
  await ctx.start();
}

export async function deactivate(): Promise<void> {
  await ctx?.stop();
  ctx = undefined;
}

/**
 * Sets an ssalens setting where the user set it (workspace folder, workspace), else in the user
 * settings.
 */
async function updateSetting(key: string, value: unknown): Promise<void> {
  const config = vscode.workspace.getConfiguration('ssalens');
  const i = config.inspect(key);
  const target =
    i?.workspaceFolderValue !== undefined
      ? vscode.ConfigurationTarget.WorkspaceFolder
      : i?.workspaceValue !== undefined
        ? vscode.ConfigurationTarget.Workspace
        : vscode.ConfigurationTarget.Global;
  await config.update(key, value, target);
}

/** Holds the client and everything that outlives one server process. */
class Ctx {
  private client: LanguageClient | undefined;
  private readonly output: vscode.OutputChannel;
  private readonly traceOutput: vscode.OutputChannel;
  private readonly status: vscode.StatusBarItem;
  private readonly ssa: SsaViews;
  private readonly cursor: CursorReporter;
  private readonly documents = new DocumentStatuses();
  /** The server, while it runs: what the status item's tooltip names. */
  private running: string | undefined;
  /** The last "Toggle Inlay Hints", until it has written both settings. */
  private toggling: Promise<void> = Promise.resolve();

  constructor(private readonly context: vscode.ExtensionContext) {
    this.output = vscode.window.createOutputChannel('ssalens');
    this.traceOutput = vscode.window.createOutputChannel('ssalens (trace)');
    this.status = vscode.window.createStatusBarItem('ssalens.status', vscode.StatusBarAlignment.Left, 0);
    this.status.name = 'ssalens';
    this.status.command = 'ssalens.showSSAForFunction';
    this.ssa = new SsaViews(() => this.client);
    this.cursor = new CursorReporter(() => this.client, LANGUAGES);
    // Menus and keybindings are enabled in these languages.
    void vscode.commands.executeCommand('setContext', 'ssalens.languages', LANGUAGES);
    context.subscriptions.push(
      this.output,
      this.traceOutput,
      this.status,
      this.ssa,
      this.cursor,
      vscode.commands.registerCommand('ssalens.showSSAForFunction', () => this.showSsa()),
      vscode.commands.registerCommand('ssalens.goToReachingDefinitions', () =>
        listAtCursor(this.client, ReachingDefinitionsRequest, 'reaching definitions', true),
      ),
      vscode.commands.registerCommand('ssalens.findValueReferences', () => listAtCursor(this.client, ValueReferencesRequest, 'value references', false)),
      vscode.commands.registerCommand('ssalens.showUnrenamed', (arg?: { uri: string }) => this.showUnrenamed(arg?.uri)),
      vscode.commands.registerCommand('ssalens.restartServer', () => this.restart()),
      vscode.commands.registerCommand('ssalens.toggleInlayHints', () => this.toggleInlayHints()),
      vscode.commands.registerCommand('ssalens.setInlayHintScope', () => this.setInlayHintScope()),
      vscode.window.onDidChangeActiveTextEditor(() => {
        this.updateStatusVisibility();
        this.showStatus();
      }),
      vscode.workspace.onDidCloseTextDocument((doc) => this.documents.forget(doc.uri.toString())),
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
      documentSelector: LANGUAGES.flatMap((language) => SCHEMES.map((scheme) => ({ scheme, language }))),
      synchronize: { configurationSection: 'ssalens' },
      initializationOptions: () =>
        initializationOptions(readServerSettings((k) => vscode.workspace.getConfiguration('ssalens').get(k))),
      outputChannel: this.output,
      traceOutputChannel: this.traceOutput,
      middleware: {
        // The lens that counts the variables without versions carries its reasons in its
        // argument; the LSP 3.17 Command has no tooltip for them.
        provideCodeLenses: async (doc, token, next) => {
          const lenses = await next(doc, token);
          for (const lens of lenses ?? []) {
            const details = (lens.command?.arguments?.[0] as { details?: string } | undefined)?.details;
            if (lens.command && details) {
              lens.command.tooltip = details;
            }
          }
          return lenses;
        },
      },
    };
    const client = new LanguageClient('ssalens', 'ssalens', serverOptions, clientOptions);
    this.client = client;
    // Before start, so that no status of the first documents is missed.
    client.onNotification(STATUS_METHOD, (p: StatusParams) => {
      if (this.client === client) {
        this.documents.update(p);
        this.showStatus();
      }
    });
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
      this.cursor.sendActive();
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

  /**
   * Toggles run one after another: a toggle reads the two settings the one before it writes, and
   * one that read them half-written (versions off, φs still on) would hide both for good.
   */
  private toggleInlayHints(): Promise<void> {
    const run = this.toggling.then(() => this.toggleInlayHintsNow());
    this.toggling = run.catch(() => undefined);
    return run;
  }

  private async toggleInlayHintsNow(): Promise<void> {
    const config = vscode.workspace.getConfiguration('ssalens');
    const next = toggledInlayHints(readServerSettings((k) => config.get(k)));
    await updateSetting(SETTING_KEYS.versions, next.versions);
    await updateSetting(SETTING_KEYS.phis, next.phis);
    vscode.window.setStatusBarMessage(`ssalens: inlay hints ${next.versions ? 'on' : 'off'}`, 3000);
  }

  /** Asks which hints to show: the file's, the function's at the cursor or the variable's. */
  private async setInlayHintScope(): Promise<void> {
    const current = readServerSettings((k) => vscode.workspace.getConfiguration('ssalens').get(k)).inlayHints.scope;
    const items: (vscode.QuickPickItem & { scope: Scope })[] = [
      { scope: 'file', label: 'File', detail: 'Every hint of the file.' },
      { scope: 'function', label: 'Function', detail: 'Only the hints of the innermost function at the cursor.' },
      { scope: 'variable', label: 'Variable', detail: 'Only the SSA web of the variable at the cursor: its values, the φs that connect them, their occurrences.' },
    ];
    for (const it of items) {
      it.description = it.scope === current ? '(current)' : undefined;
    }
    const pick = await vscode.window.showQuickPick(items, { title: 'ssalens: which inlay hints to show' });
    if (pick) {
      await updateSetting(SETTING_KEYS.scope, pick.scope);
    }
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

  private showSsa(): void {
    const editor = vscode.window.activeTextEditor;
    if (!editor || !LANGUAGES.includes(editor.document.languageId)) {
      void vscode.window.showInformationMessage('ssalens: Show SSA works in JavaScript and TypeScript files: open one and put the cursor in a function.');
      return;
    }
    this.ssa.show(editor);
  }

  /** Lists why the variables of the document uri (by default the active one's) have no versions. */
  private async showUnrenamed(uri?: string): Promise<void> {
    uri ??= vscode.window.activeTextEditor?.document.uri.toString();
    if (!this.client || !uri) {
      return;
    }
    const u = await this.client.sendRequest(UnrenamedRequest, { textDocument: { uri } });
    if (u.items.length === 0) {
      vscode.window.setStatusBarMessage(u.summary ? `ssalens: ${u.summary}` : 'ssalens: every variable of this file has versions', 4000);
      return;
    }
    await showItems(`ssalens: no versions for ${u.summary}`, u.items, false);
  }

  private setStatus(state: 'starting' | 'running' | 'stopped' | 'error', detail?: string): void {
    const s = this.status;
    s.backgroundColor = undefined;
    this.running = undefined;
    if (state !== 'running') {
      this.documents.clear(); // a new server reports on every document again
    }
    switch (state) {
      case 'starting':
        s.text = '$(sync~spin) ssalens';
        s.tooltip = 'ssalens: starting the server…';
        break;
      case 'running':
        this.running = detail ?? '';
        this.showStatus();
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

  /** While the server runs, shows what it says of the active document (documentStatus.ts). */
  private showStatus(): void {
    if (this.running === undefined) {
      return;
    }
    const uri = vscode.window.activeTextEditor?.document.uri.toString();
    const label = documentLabel(uri === undefined ? undefined : this.documents.get(uri));
    const server = `ssalens is running${this.running ? `: \`${this.running}\`` : ''}\n\nClick to show the SSA of the function at the cursor.`;
    this.status.text = label?.text ?? '$(symbol-variable) ssalens';
    const tooltip = new vscode.MarkdownString(label ? `${label.tooltip}\n\n${server}` : server);
    tooltip.isTrusted = { enabledCommands: [SHOW_UNRENAMED] };
    this.status.tooltip = tooltip;
  }

  private updateStatusVisibility(): void {
    const doc = vscode.window.activeTextEditor?.document;
    if (doc && LANGUAGES.includes(doc.languageId)) {
      this.status.show();
    } else {
      this.status.hide();
    }
  }
}
