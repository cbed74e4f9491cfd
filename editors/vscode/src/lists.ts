// ssalens' own navigation lists: reaching definitions, value references and the variables
// without versions, each place labelled with what the value is there (x₂ — defined on line 4),
// in a quick pick that previews each place as it is selected. Only ssalens' answers are listed,
// never merged with VS Code's own JavaScript results.
import * as vscode from 'vscode';
import { LanguageClient, RequestType, TextDocumentIdentifier, TextDocumentPositionParams } from 'vscode-languageclient/node';

/** A place and its label, as ssalens/reachingDefinitions, valueReferences and unrenamed give them. */
export interface LocatedItem {
  uri: string;
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  label: string;
  detail?: string;
}

export const ReachingDefinitionsRequest = new RequestType<TextDocumentPositionParams, LocatedItem[] | null, void>('ssalens/reachingDefinitions');
export const ValueReferencesRequest = new RequestType<TextDocumentPositionParams, LocatedItem[] | null, void>('ssalens/valueReferences');
export const UnrenamedRequest = new RequestType<{ textDocument: TextDocumentIdentifier }, { summary: string; details: string; items: LocatedItem[] }, void>(
  'ssalens/unrenamed',
);

interface Pick extends vscode.QuickPickItem {
  item: LocatedItem;
}

function toRange(r: LocatedItem['range']): vscode.Range {
  return new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character);
}

async function showAt(item: LocatedItem, preview: boolean): Promise<void> {
  const range = toRange(item.range);
  const editor = await vscode.window.showTextDocument(vscode.Uri.parse(item.uri), { preview, preserveFocus: preview, selection: range });
  editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}

/**
 * Lists items in a quick pick titled title, showing each in the editor as it is selected; with
 * jumpIfOne, a single item is gone to at once. Closing the list without a choice goes back to
 * where the cursor was.
 */
export async function showItems(title: string, items: LocatedItem[], jumpIfOne: boolean): Promise<void> {
  if (jumpIfOne && items.length === 1) {
    await showAt(items[0], false);
    return;
  }
  const back = vscode.window.activeTextEditor;
  const backSelection = back?.selection;
  const backRange = back?.visibleRanges[0];
  const qp = vscode.window.createQuickPick<Pick>();
  qp.title = title;
  qp.matchOnDescription = true;
  qp.items = items.map((item) => ({
    label: item.label,
    description: `${vscode.workspace.asRelativePath(vscode.Uri.parse(item.uri))}:${item.range.start.line + 1}`,
    detail: item.detail,
    item,
  }));
  let chosen = false;
  qp.onDidChangeActive((active) => {
    if (active[0]) {
      void showAt(active[0].item, true);
    }
  });
  qp.onDidAccept(() => {
    chosen = true;
    const pick = qp.selectedItems[0] ?? qp.activeItems[0];
    qp.hide();
    if (pick) {
      void showAt(pick.item, false);
    }
  });
  qp.onDidHide(() => {
    qp.dispose();
    if (chosen || !back || !backSelection) {
      return;
    }
    // Back to where the cursor was; in the same editor without taking the focus, which may
    // have gone on to something else already.
    const restore = (e: vscode.TextEditor) => {
      e.selection = backSelection;
      if (backRange) {
        e.revealRange(backRange, vscode.TextEditorRevealType.AtTop);
      }
    };
    if (vscode.window.visibleTextEditors.includes(back)) {
      restore(back);
    } else {
      void vscode.window.showTextDocument(back.document, { viewColumn: back.viewColumn, preserveFocus: true }).then(restore);
    }
  });
  qp.show();
}

/** Runs a position request of ssalens at the cursor and lists its answer. */
export async function listAtCursor(
  client: LanguageClient | undefined,
  request: RequestType<TextDocumentPositionParams, LocatedItem[] | null, void>,
  what: string,
  jumpIfOne: boolean,
): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!client || !editor) {
    return;
  }
  const pos = editor.selection.active;
  const items =
    (await client.sendRequest(request, { textDocument: { uri: editor.document.uri.toString() }, position: { line: pos.line, character: pos.character } })) ?? [];
  if (items.length === 0) {
    vscode.window.setStatusBarMessage(`ssalens: no ${what} here`, 3000);
    return;
  }
  const word = editor.document.getText(editor.document.getWordRangeAtPosition(pos));
  await showItems(`ssalens: ${what} of ${word} (${items.length})`, items, jumpIfOne);
}
