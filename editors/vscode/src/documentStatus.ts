// What the server says of each document's analysis (the notification ssalens/status, see
// server/progress.go), and what the status-bar item makes of it. Pure logic: no 'vscode' import.

export const STATUS_METHOD = 'ssalens/status';

/** The params of ssalens/status. */
export interface StatusParams {
  textDocument: { uri: string };
  version: number;
  /** A slow analysis of this version has started; false once its diagnostics are published. */
  analyzing: boolean;
  /** The functions of the file not analyzed, once it is analyzed. */
  notAnalyzed: number;
  /**
   * Those of notAnalyzed that a syntax error breaks and that show the analysis of the last
   * version that parsed; absent when none do.
   */
  kept?: number;
}

export interface DocumentStatus {
  analyzing: boolean;
  notAnalyzed: number;
  kept: number;
}

/**
 * The last status of each open document, by URI as the client sends it. The server tells the
 * status of a version only after publishing its diagnostics, so a document the server has not
 * reported on yet has none.
 */
export class DocumentStatuses {
  private readonly byUri = new Map<string, DocumentStatus>();

  update(p: StatusParams): void {
    this.byUri.set(p.textDocument.uri, { analyzing: p.analyzing, notAnalyzed: p.notAnalyzed, kept: p.kept ?? 0 });
  }

  get(uri: string): DocumentStatus | undefined {
    return this.byUri.get(uri);
  }

  /** Forgets a closed document: the server says nothing more of it. */
  forget(uri: string): void {
    this.byUri.delete(uri);
  }

  /** Forgets every document, when the server stops: the next one starts over. */
  clear(): void {
    this.byUri.clear();
  }
}

/** The status-bar item's text and tooltip (Markdown, first paragraph) for a document. */
export interface StatusLabel {
  text: string;
  tooltip: string;
}

/** The command that lists the functions not analyzed (and the variables without versions). */
export const SHOW_UNRENAMED = 'ssalens.showUnrenamed';

/**
 * What the item says of a document while the server runs: analyzing, or how many of its
 * functions are not analyzed; undefined when there is nothing to say of it.
 */
export function documentLabel(s: DocumentStatus | undefined): StatusLabel | undefined {
  if (s?.analyzing) {
    return {
      text: '$(sync~spin) ssalens: analyzing…',
      tooltip: 'ssalens is analyzing this file: its hints, hovers and diagnostics come when the analysis is done.',
    };
  }
  if (!s || s.notAnalyzed === 0) {
    return undefined;
  }
  const n = s.notAnalyzed;
  const functions = n === 1 ? '1 function of this file is' : `${n} functions of this file are`;
  // A function a syntax error breaks shows the versions of the last version that parsed.
  let why = 'their variables have no SSA versions';
  if (s.kept === n) {
    why = n === 1 ? 'a syntax error breaks it, and it shows the last version that parsed'
      : 'syntax errors break them, and they show the last version that parsed';
  } else if (s.kept > 0) {
    why += `, but for the ${s.kept} that syntax errors break, which show the last version that parsed`;
  }
  return {
    text: `$(symbol-variable) ssalens · ${n} not analyzed`,
    tooltip:
      `${functions} not analyzed: ${why}. ` +
      `[Why Variables Have No Versions](command:${SHOW_UNRENAMED}) lists them with the reasons, ` +
      'as does the code lens on the first line of the file.',
  };
}
