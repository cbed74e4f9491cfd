// The URIs of the read-only "Show SSA" documents. Pure logic: no 'vscode' import.
//
// A document is named after the source file and the position it was asked for:
//   ssalens-ssa:/<source file name>@<line>:<character>.ssa?<source URI, percent-encoded>
// The path is what the tab shows; the query carries the source URI exactly.

export const SSA_SCHEME = 'ssalens-ssa';

export interface SsaTarget {
  /** The source document's URI, as a string (file:///…, untitled:…). */
  source: string;
  /** Zero-based LSP position (UTF-16 character). */
  line: number;
  character: number;
}

export interface UriParts {
  scheme: string;
  path: string;
  query: string;
}

function baseName(uri: string): string {
  const noQuery = uri.replace(/[?#].*$/, '');
  const i = Math.max(noQuery.lastIndexOf('/'), noQuery.lastIndexOf(':'));
  let name = noQuery.slice(i + 1);
  try {
    name = decodeURIComponent(name);
  } catch {
    // keep it encoded
  }
  return name || 'untitled';
}

export function encodeSsaUri(t: SsaTarget): UriParts {
  return {
    scheme: SSA_SCHEME,
    path: `/${baseName(t.source)}@${t.line + 1}:${t.character + 1}.ssa`,
    query: encodeURIComponent(t.source),
  };
}

/** Decodes the parts of an SSA document URI; undefined when it is not one. */
export function decodeSsaUri(u: UriParts): SsaTarget | undefined {
  if (u.scheme !== SSA_SCHEME || !u.query) {
    return undefined;
  }
  const m = /@(\d+):(\d+)\.ssa$/.exec(u.path);
  if (!m) {
    return undefined;
  }
  let source: string;
  try {
    source = decodeURIComponent(u.query);
  } catch {
    return undefined;
  }
  const line = Number(m[1]) - 1;
  const character = Number(m[2]) - 1;
  if (line < 0 || character < 0) {
    return undefined;
  }
  return { source, line, character };
}

/** A text change of the source: the replaced range and the new text. */
export interface TextChange {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  text: string;
}

/**
 * Moves a position through edits of its document, so that a "Show SSA" document keeps showing
 * the same function while lines are inserted or removed above it. A position inside a replaced
 * range moves to the range's start.
 */
export function shiftPosition(
  pos: { line: number; character: number },
  changes: readonly TextChange[],
): { line: number; character: number } {
  let { line, character } = pos;
  for (const c of changes) {
    const { start, end } = c.range;
    const before = (a: { line: number; character: number }, b: { line: number; character: number }) =>
      a.line < b.line || (a.line === b.line && a.character <= b.character);
    if (before({ line, character }, start)) {
      continue; // the edit is after the position
    }
    if (!before(end, { line, character })) {
      line = start.line;
      character = start.character; // inside the replaced range
      continue;
    }
    const newLines = c.text.split('\n');
    const addedLines = newLines.length - 1;
    const removedLines = end.line - start.line;
    if (line === end.line) {
      const lastLen = newLines[newLines.length - 1].length;
      const base = addedLines === 0 ? start.character + lastLen : lastLen;
      character = base + (character - end.character);
    }
    line += addedLines - removedLines;
  }
  return { line, character };
}
