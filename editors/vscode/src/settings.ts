// The settings the server reads, and how they travel. Pure logic: no 'vscode' import.

/** The server-side settings, all booleans that default to true. */
export interface ServerSettings {
  inlayHints: { versions: boolean; phis: boolean };
  diagnostics: { uselessAssignment: boolean };
}

export const SETTING_KEYS = {
  versions: 'inlayHints.versions',
  phis: 'inlayHints.phis',
  uselessAssignment: 'diagnostics.uselessAssignment',
} as const;

/** Reads the settings through `get`, a lookup of keys relative to the `ssalens` section. */
export function readServerSettings(get: (key: string) => unknown): ServerSettings {
  const bool = (key: string): boolean => {
    const v = get(key);
    return typeof v === 'boolean' ? v : true;
  };
  return {
    inlayHints: { versions: bool(SETTING_KEYS.versions), phis: bool(SETTING_KEYS.phis) },
    diagnostics: { uselessAssignment: bool(SETTING_KEYS.uselessAssignment) },
  };
}

/**
 * The initializationOptions sent to the server: the settings under an `ssalens` key, the same
 * shape `workspace/didChangeConfiguration` carries in its `settings` (section `ssalens`).
 */
export function initializationOptions(s: ServerSettings): { ssalens: ServerSettings } {
  return {
    ssalens: {
      inlayHints: { versions: s.inlayHints.versions, phis: s.inlayHints.phis },
      diagnostics: { uselessAssignment: s.diagnostics.uselessAssignment },
    },
  };
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
