// Finding the ssalens binary. Pure logic: no 'vscode' import, so unit tests run under plain Node.
import * as fs from 'node:fs';
import * as path from 'node:path';

export type ServerSource = 'setting' | 'PATH' | 'bundled';

export interface ResolveInput {
  /** The value of `ssalens.server.path` (may be null, empty or start with `~`). */
  configured: string | null | undefined;
  /** process.env.PATH */
  envPath: string | undefined;
  /**
   * The extension's install folder. A platform package holds its server in `bin/`; the universal
   * package has no `bin/`.
   */
  extensionPath: string;
  platform?: NodeJS.Platform;
  homeDir?: string;
  /** The workspace folder, against which a relative `ssalens.server.path` is resolved. */
  workspaceFolder?: string;
  /** Tells whether a file exists and can be run; injectable for tests. */
  isExecutable?: (file: string) => boolean;
  /** Tells whether a directory exists; injectable for tests. */
  isDirectory?: (dir: string) => boolean;
}

export type ResolveResult =
  | { ok: true; path: string; source: ServerSource }
  | { ok: false; message: string };

export function binaryName(platform: NodeJS.Platform = process.platform): string {
  return platform === 'win32' ? 'ssalens.exe' : 'ssalens';
}

export function defaultIsExecutable(file: string): boolean {
  try {
    const st = fs.statSync(file);
    if (!st.isFile()) {
      return false;
    }
    if (process.platform === 'win32') {
      return true;
    }
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function defaultIsDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** Expands a leading `~` and makes a relative path absolute against the workspace folder. */
export function expandPath(p: string, homeDir?: string, workspaceFolder?: string): string {
  let out = p.trim();
  if (homeDir && (out === '~' || out.startsWith('~/'))) {
    out = path.join(homeDir, out.slice(1));
  }
  if (!path.isAbsolute(out) && workspaceFolder && (out.includes('/') || out.includes('\\'))) {
    out = path.resolve(workspaceFolder, out);
  }
  return out;
}

/** Looks `name` up in a PATH string the way a shell would. */
export function findOnPath(
  name: string,
  envPath: string | undefined,
  platform: NodeJS.Platform = process.platform,
  isExecutable: (file: string) => boolean = defaultIsExecutable,
): string | undefined {
  if (!envPath) {
    return undefined;
  }
  const sep = platform === 'win32' ? ';' : ':';
  for (const dir of envPath.split(sep)) {
    if (!dir) {
      continue;
    }
    const candidate = path.join(dir, name);
    if (isExecutable(candidate)) {
      return candidate;
    }
  }
  return undefined;
}

export const FIX_HINT =
  'Install it with `go install github.com/ssalens/ssalens/cmd/ssalens@latest` (and make sure ' +
  '$(go env GOPATH)/bin is on PATH), or set "ssalens.server.path" to the binary.';

/**
 * Resolves the server binary: the `ssalens.server.path` setting, else `ssalens` on PATH, else the
 * binary bundled in the extension's `bin/` (in the platform packages; the universal package has no
 * `bin/`).
 */
export function resolveServerPath(input: ResolveInput): ResolveResult {
  const platform = input.platform ?? process.platform;
  const isExecutable = input.isExecutable ?? defaultIsExecutable;
  const isDirectory = input.isDirectory ?? defaultIsDirectory;
  const name = binaryName(platform);

  const configured = input.configured?.trim();
  if (configured) {
    const expanded = expandPath(configured, input.homeDir, input.workspaceFolder);
    // A bare name ("ssalens") in the setting is looked up on PATH.
    if (!expanded.includes('/') && !expanded.includes('\\')) {
      const onPath = findOnPath(expanded, input.envPath, platform, isExecutable);
      if (onPath) {
        return { ok: true, path: onPath, source: 'setting' };
      }
    } else if (isExecutable(expanded)) {
      return { ok: true, path: expanded, source: 'setting' };
    }
    return {
      ok: false,
      message: `ssalens: "ssalens.server.path" is set to "${configured}", but no executable file is there. ` +
        'Fix the setting, or clear it to use `ssalens` on PATH.',
    };
  }

  const onPath = findOnPath(name, input.envPath, platform, isExecutable);
  if (onPath) {
    return { ok: true, path: onPath, source: 'PATH' };
  }

  const notFound = `ssalens: cannot find the ssalens server: "ssalens.server.path" is not set and there is ` +
    `no \`${name}\` on PATH.`;
  const binDir = path.join(input.extensionPath, 'bin');
  if (!isDirectory(binDir)) {
    return {
      ok: false,
      message: `${notFound} This universal build of the extension bundles no server (the builds for ` +
        `linux-x64, linux-arm64 and win32-x64 do). ${FIX_HINT}`,
    };
  }
  const bundled = path.join(binDir, name);
  if (isExecutable(bundled)) {
    return { ok: true, path: bundled, source: 'bundled' };
  }
  return {
    ok: false,
    message: `${notFound} The server bundled with the extension, ${bundled}, is missing or cannot be run: ` +
      `reinstall the extension. ${FIX_HINT}`,
  };
}
