/**
 * The agent's files in the origin private file system (OPFS): `createWorkspace({name})` opens (or
 * creates) a folder of its own, where tools read and write text files and the page lists, downloads and
 * deletes them. Paths are relative to the workspace root and cannot leave it.
 */
import { PagentError, errorMessage } from '../errors.js';

/** Why a workspace operation failed. */
export type WorkspaceErrorReason = 'invalid-path' | 'not-found' | 'not-a-file' | 'not-a-directory' | 'quota' | 'unavailable';

/**
 * A workspace operation that failed. `reason`: `invalid-path` (absolute, `..`, a segment that only
 * Unicode normalisation turns into `.`/`..` or a separator, control characters, lone surrogates), `not-found`,
 * `not-a-file` / `not-a-directory` (the path names the other kind), `quota` (the origin's storage quota
 * is exhausted; nothing of the write is kept), `unavailable` (no OPFS in this browser or context).
 */
export class WorkspaceError extends PagentError {
  override name = 'WorkspaceError' as const;
  /** What went wrong. */
  readonly reason: WorkspaceErrorReason;
  /** The path the operation was about, as given. */
  readonly path: string | undefined;
  constructor(reason: WorkspaceErrorReason, message: string, options: { path?: string | undefined; cause?: unknown } = {}) {
    super(message, { code: 'workspace', where: 'workspace', cause: options.cause });
    this.reason = reason;
    this.path = options.path;
  }
}

/** One entry of a workspace folder. */
export interface WorkspaceEntry {
  /** The entry's own name. */
  name: string;
  /** Its path from the workspace root (`/`-separated). */
  path: string;
  kind: 'file' | 'directory';
  /** Size in bytes (files; 0 for folders). */
  size: number;
  /** Last change, epoch milliseconds (files; 0 for folders). */
  lastModified: number;
}

/** A change to a workspace made through this page's `Workspace` objects. */
export interface WorkspaceChange {
  type: 'write' | 'delete';
  path: string;
}

/** The agent's files: one OPFS folder. Every method rejects with a {@link WorkspaceError}. */
export interface Workspace {
  /** The workspace's name (its folder under `pagent-workspaces/` in OPFS). */
  readonly name: string;
  /** The whole text of a file (UTF-8). */
  read(path: string): Promise<string>;
  /** Writes a text file (UTF-8), replacing it; creates missing parent folders. */
  write(path: string, text: string): Promise<void>;
  /** The entries of a folder (`""` or `"."` is the root), folders first, then by name. */
  list(path?: string): Promise<WorkspaceEntry[]>;
  /** Every file, recursively, by path. */
  files(): Promise<WorkspaceEntry[]>;
  /** The file itself (a `File`: a `Blob` with a name), e.g. for a download link. */
  file(path: string): Promise<File>;
  /** Deletes a file, or a folder with everything in it. Deleting a missing path does nothing. */
  delete(path: string): Promise<void>;
  /** Deletes every file and folder of the workspace. */
  clear(): Promise<void>;
  /** Calls `listener` after every write and delete made through this page. Returns the unsubscribe function. */
  subscribe(listener: (change: WorkspaceChange) => void): () => void;
}

/** Options of {@link createWorkspace}. */
export interface WorkspaceOptions {
  /**
   * The workspace's name: one per conversation (e.g. the session id), or shared by giving several
   * agents the same name. Any non-empty text; it is checked like a path segment.
   * @defaultValue "default"
   */
  name?: string;
}

// A segment that is "." or ".." or holds a separator once compatibility-normalised (fullwidth "．．",
// "‥", "／", "＼" …) is refused rather than stored under a name that looks like something else.
// Refused too: control characters (\p{Cc}: C0, DEL, C1) and lone surrogates (\p{Cs}: under /u a
// well-formed pair is one code point, so only an unpaired half matches). OPFS names are USVStrings, where
// every lone surrogate becomes U+FFFD, so "a\uD800" and "a\uDC00" would name one file.
const UNNAMEABLE = /[\p{Cc}\p{Cs}]/gu;

/** `U+0085` for a character (its first UTF-16 unit: these are all single units). */
const codeOf = (c: string): string => `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * Splits a workspace path into NFC-normalised segments, refusing anything that could leave the root or
 * name a file under another spelling. `""`, `"."` and `"./"` are the root; empty and `.` segments are
 * dropped. Control characters (C0, DEL, C1) and lone surrogates are refused. Canonically equivalent
 * spellings (a decomposed `e` + U+0301 and the composed `é`) name the same file on purpose: they look the
 * same, and a model or a keyboard may produce either.
 *
 * @throws {WorkspaceError} `invalid-path`, the message naming the character (`U+0085`).
 */
export function workspacePath(path: string): string[] {
  const refuse = (why: string): never => {
    // the path as it is shown: its unnameable characters as \uXXXX
    const shown = String(path).slice(0, 200).replace(UNNAMEABLE, (c) => `\\u${codeOf(c).slice(2)}`);
    throw new WorkspaceError('invalid-path', `Workspace path "${shown}" refused: ${why}`, { path });
  };
  if (typeof path !== 'string') return refuse('not a string');
  const bad = path.match(UNNAMEABLE)?.[0];
  if (bad !== undefined) {
    refuse(bad >= '\uD800' ? `it contains a lone surrogate (${codeOf(bad)}), which the file system would store as U+FFFD` : `it contains the control character ${codeOf(bad)}`);
  }
  if (path.startsWith('/') || path.startsWith('\\') || /^[a-zA-Z]:/.test(path) || path.startsWith('~')) {
    refuse('absolute paths are not allowed; use a path relative to the workspace root');
  }
  const segments: string[] = [];
  for (const raw of path.split('/')) {
    const segment = raw.normalize('NFC');
    const folded = segment.normalize('NFKC');
    if (segment === '' || segment === '.') continue;
    if (segment === '..') refuse('".." segments are not allowed');
    if (folded === '.' || folded === '..' || folded.includes('/') || folded.includes('\\') || segment.includes('\\')) {
      refuse(`the segment "${segment}" reads as a path step after Unicode normalisation`);
    }
    if (segment.length > 255) refuse('a segment is longer than 255 characters');
    segments.push(segment);
  }
  return segments;
}

const workspaceName = (name: string): string => {
  const segments = workspacePath(name);
  if (segments.length !== 1) {
    throw new WorkspaceError('invalid-path', `Workspace name "${name}" refused: it must be one path segment`, { path: name });
  }
  return segments[0]!;
};

function isQuota(err: unknown): boolean {
  return err instanceof DOMException && (err.name === 'QuotaExceededError' || err.code === 22);
}

function mapError(err: unknown, operation: string, path: string): WorkspaceError {
  if (err instanceof WorkspaceError) return err;
  const name = err instanceof DOMException ? err.name : '';
  const detail = errorMessage(err);
  if (isQuota(err)) {
    return new WorkspaceError('quota', `Workspace ${operation} "${path}" failed: the browser's storage quota for this site is exhausted; delete files or free space (nothing of this write was kept)`, { path, cause: err });
  }
  if (name === 'NotFoundError') return new WorkspaceError('not-found', `Workspace ${operation} "${path}" failed: no such file or folder`, { path, cause: err });
  if (name === 'TypeMismatchError') return new WorkspaceError('not-a-file', `Workspace ${operation} "${path}" failed: the path names a folder where a file was expected, or a file where a folder was expected`, { path, cause: err });
  return new WorkspaceError('unavailable', `Workspace ${operation} "${path}" failed: ${detail}`, { path, cause: err });
}

/** The write stream's data pipe was closed by the browser's storage side while writing. */
const isPipeStop = (err: unknown): boolean => err instanceof DOMException && /data pipe/i.test(err.message);

type Dir = FileSystemDirectoryHandle;

/** True when `text` would not fit in what is left of the origin's quota. */
async function overQuota(text: string): Promise<boolean> {
  try {
    const estimate = await navigator.storage.estimate();
    if (estimate.quota === undefined || estimate.usage === undefined) return false;
    return estimate.usage + new TextEncoder().encode(text).length > estimate.quota;
  } catch {
    return false;
  }
}

/**
 * Opens the workspace `name` in the origin private file system, creating it when missing.
 *
 * @example
 * const ws = await createWorkspace({ name: agent.sessionId });
 * const agent = new Agent({ llm, tools: [...workspaceTools(ws)] });
 * await ws.files(); // [{ path: 'notes.md', size: 120, … }]
 *
 * @throws {WorkspaceError} `unavailable` without OPFS (`navigator.storage.getDirectory`).
 */
export async function createWorkspace(options: WorkspaceOptions = {}): Promise<Workspace> {
  const name = workspaceName(options.name ?? 'default');
  const storage = (globalThis as { navigator?: { storage?: { getDirectory?: () => Promise<Dir> } } }).navigator?.storage;
  if (!storage?.getDirectory) {
    throw new WorkspaceError('unavailable', 'Workspace: the origin private file system (navigator.storage.getDirectory) is not available here');
  }
  let root: Dir;
  try {
    const opfs = await storage.getDirectory();
    const all = await opfs.getDirectoryHandle('pagent-workspaces', { create: true });
    root = await all.getDirectoryHandle(name, { create: true });
  } catch (err) {
    throw mapError(err, 'open', name);
  }
  return openWorkspace(name, root);
}

function openWorkspace(name: string, root: Dir): Workspace {
  const listeners = new Set<(change: WorkspaceChange) => void>();
  const notify = (change: WorkspaceChange): void => {
    for (const listener of [...listeners]) {
      try {
        listener(change);
      } catch {
        // a page's listener must not fail the tool that wrote
      }
    }
  };

  async function folder(segments: string[], create: boolean, path: string): Promise<Dir> {
    let dir = root;
    for (const segment of segments) {
      try {
        dir = await dir.getDirectoryHandle(segment, { create });
      } catch (err) {
        const mapped = mapError(err, create ? 'write' : 'open', path);
        if (mapped.reason === 'not-a-file') {
          throw new WorkspaceError('not-a-directory', `Workspace path "${path}" failed: "${segment}" is a file, not a folder`, { path, cause: err });
        }
        throw mapped;
      }
    }
    return dir;
  }

  async function fileHandle(path: string, operation: string): Promise<FileSystemFileHandle> {
    const segments = workspacePath(path);
    const last = segments.pop();
    if (last === undefined) throw new WorkspaceError('not-a-file', `Workspace ${operation} "${path}" failed: that is the workspace root, not a file`, { path });
    const dir = await folder(segments, false, path);
    try {
      return await dir.getFileHandle(last);
    } catch (err) {
      throw mapError(err, operation, path);
    }
  }

  const joined = (segments: string[]): string => segments.join('/');

  async function entries(dir: Dir, prefix: string[]): Promise<WorkspaceEntry[]> {
    const out: WorkspaceEntry[] = [];
    for await (const [entryName, handle] of dir.entries()) {
      const path = joined([...prefix, entryName]);
      if (handle.kind === 'file') {
        const file = await (handle as FileSystemFileHandle).getFile();
        out.push({ name: entryName, path, kind: 'file', size: file.size, lastModified: file.lastModified });
      } else {
        out.push({ name: entryName, path, kind: 'directory', size: 0, lastModified: 0 });
      }
    }
    return out.sort((a, b) => (a.kind === b.kind ? (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) : a.kind === 'directory' ? -1 : 1));
  }

  return {
    name,

    async read(path) {
      const handle = await fileHandle(path, 'read');
      try {
        return await (await handle.getFile()).text();
      } catch (err) {
        throw mapError(err, 'read', path);
      }
    },

    async write(path, text) {
      const segments = workspacePath(path);
      const last = segments.pop();
      if (last === undefined) throw new WorkspaceError('not-a-file', `Workspace write "${path}" failed: a file path is needed, not the workspace root`, { path });
      const dir = await folder(segments, true, path);
      let writable: FileSystemWritableFileStream | undefined;
      let created = false;
      try {
        const handle = await dir.getFileHandle(last).catch(async (err: unknown) => {
          if (!(err instanceof DOMException && err.name === 'NotFoundError')) throw err;
          created = true;
          return dir.getFileHandle(last, { create: true });
        });
        writable = await handle.createWritable();
        await writable.write(String(text));
        await writable.close();
        writable = undefined;
      } catch (err) {
        // the swap file is dropped: the file keeps its previous content
        await writable?.abort().catch(() => undefined);
        if (created) await dir.removeEntry(last).catch(() => undefined);
        // Chromium sometimes reports a write stopped by the quota as a bare pipe error ("Failed to write data
        // to data pipe": its storage side closed the pipe), and its estimate does not always show the quota
        // that stopped it: either sign means quota
        const quota = isPipeStop(err) || (await overQuota(text));
        throw mapError(quota ? new DOMException(String(err), 'QuotaExceededError') : err, 'write', path);
      }
      notify({ type: 'write', path: joined([...segments, last]) });
    },

    async list(path = '') {
      const segments = workspacePath(path);
      const dir = await folder(segments, false, path);
      try {
        return await entries(dir, segments);
      } catch (err) {
        throw mapError(err, 'list', path);
      }
    },

    async files() {
      const out: WorkspaceEntry[] = [];
      const walk = async (dir: Dir, prefix: string[]): Promise<void> => {
        for (const entry of await entries(dir, prefix)) {
          if (entry.kind === 'file') out.push(entry);
          else await walk(await dir.getDirectoryHandle(entry.name), [...prefix, entry.name]);
        }
      };
      try {
        await walk(root, []);
      } catch (err) {
        throw mapError(err, 'list', '');
      }
      return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    },

    async file(path) {
      const handle = await fileHandle(path, 'read');
      try {
        return await handle.getFile();
      } catch (err) {
        throw mapError(err, 'read', path);
      }
    },

    async delete(path) {
      const segments = workspacePath(path);
      const last = segments.pop();
      if (last === undefined) throw new WorkspaceError('invalid-path', `Workspace delete "${path}" refused: use clear() to empty the workspace`, { path });
      let dir: Dir;
      try {
        dir = await folder(segments, false, path);
      } catch (err) {
        if (err instanceof WorkspaceError && err.reason === 'not-found') return;
        throw err;
      }
      try {
        await dir.removeEntry(last, { recursive: true });
      } catch (err) {
        const mapped = mapError(err, 'delete', path);
        if (mapped.reason === 'not-found') return;
        throw mapped;
      }
      notify({ type: 'delete', path: joined([...segments, last]) });
    },

    async clear() {
      try {
        const names: string[] = [];
        for await (const key of root.keys()) names.push(key);
        for (const key of names) await root.removeEntry(key, { recursive: true });
      } catch (err) {
        throw mapError(err, 'clear', '');
      }
      notify({ type: 'delete', path: '' });
    },

    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
