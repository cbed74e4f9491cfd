// The settings the server reads, and how they travel. Pure logic: no 'vscode' import.

export type Scope = 'file' | 'function' | 'variable';
export type Severity = 'hint' | 'information' | 'warning';

/** The server-side settings. */
export interface ServerSettings {
  inlayHints: { versions: boolean; phis: boolean; phiOnly: boolean; scope: Scope; maxPerLine: number };
  diagnostics: { uselessAssignment: boolean; uselessAssignmentSeverity: Severity };
  navigation: { standardRequests: boolean };
}

export const SETTING_KEYS = {
  versions: 'inlayHints.versions',
  phis: 'inlayHints.phis',
  phiOnly: 'inlayHints.phiOnly',
  scope: 'inlayHints.scope',
  maxPerLine: 'inlayHints.maxPerLine',
  uselessAssignment: 'diagnostics.uselessAssignment',
  uselessAssignmentSeverity: 'diagnostics.uselessAssignmentSeverity',
  standardRequests: 'navigation.standardRequests',
} as const;

const SCOPES: readonly Scope[] = ['file', 'function', 'variable'];
const SEVERITIES: readonly Severity[] = ['hint', 'information', 'warning'];

/**
 * Reads the settings through `get`, a lookup of keys relative to the `ssalens` section; a value
 * of the wrong type gets the default.
 */
export function readServerSettings(get: (key: string) => unknown): ServerSettings {
  const bool = (key: string, dflt: boolean): boolean => {
    const v = get(key);
    return typeof v === 'boolean' ? v : dflt;
  };
  const oneOf = <T extends string>(key: string, values: readonly T[]): T => {
    const v = get(key);
    return values.includes(v as T) ? (v as T) : values[0];
  };
  const count = get(SETTING_KEYS.maxPerLine);
  return {
    inlayHints: {
      versions: bool(SETTING_KEYS.versions, true),
      phis: bool(SETTING_KEYS.phis, true),
      phiOnly: bool(SETTING_KEYS.phiOnly, false),
      scope: oneOf(SETTING_KEYS.scope, SCOPES),
      maxPerLine: typeof count === 'number' && Number.isInteger(count) && count >= 0 ? count : 0,
    },
    diagnostics: {
      uselessAssignment: bool(SETTING_KEYS.uselessAssignment, true),
      uselessAssignmentSeverity: oneOf(SETTING_KEYS.uselessAssignmentSeverity, SEVERITIES),
    },
    navigation: { standardRequests: bool(SETTING_KEYS.standardRequests, true) },
  };
}

/**
 * The initializationOptions sent to the server: the settings under an `ssalens` key, the same
 * shape `workspace/didChangeConfiguration` carries in its `settings` (section `ssalens`).
 */
export function initializationOptions(s: ServerSettings): { ssalens: ServerSettings } {
  return { ssalens: JSON.parse(JSON.stringify(s)) as ServerSettings };
}

/**
 * The new values of both inlay-hint settings for "Toggle Inlay Hints": if any kind is shown, hide
 * both; if none is, show both.
 */
export function toggledInlayHints(s: ServerSettings): { versions: boolean; phis: boolean } {
  const anyOn = s.inlayHints.versions || s.inlayHints.phis;
  return { versions: !anyOn, phis: !anyOn };
}

/** Tells whether a configuration change touches a setting that needs a restart. */
export function needsRestart(affects: (section: string) => boolean): boolean {
  return affects('ssalens.server.path') || affects('ssalens.server.extraEnv');
}
