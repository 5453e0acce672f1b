/**
 * File tools over a workspace (pagentv4's sandbox file tools, pagent's windowed `readfile`):
 * `read_file`, `write_file`, `str_replace`, `list_dir`.
 */
import type { Workspace } from '../../store/workspace.js';
import { tool, type Tool } from './tools.js';

/** Options of {@link workspaceTools}. */
export interface WorkspaceToolsOptions {
  /**
   * The most characters (code points) one `read_file` call returns; longer files are read in windows.
   * @defaultValue 4000
   */
  readBudget?: number;
}

/** The code-point window `[offset, offset + budget)` of `text`, and the text's length in code points. */
export function textWindow(text: string, offset: number, budget: number): { text: string; start: number; end: number; total: number } {
  let i = 0;
  let cp = 0;
  let from = text.length;
  let to = text.length;
  let fromSet = false;
  while (i < text.length) {
    if (cp === offset) {
      from = i;
      fromSet = true;
    }
    if (cp === offset + budget) to = i;
    const code = text.charCodeAt(i);
    i += code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
    cp++;
  }
  if (!fromSet) from = text.length;
  if (offset + budget >= cp) to = text.length;
  const start = Math.min(offset, cp);
  return { text: text.slice(from, to), start, end: Math.min(offset + budget, cp), total: cp };
}

/**
 * The four file tools of a workspace, for an `Agent`'s `tools`:
 * - `read_file {path, offset?, max_chars?}` — the text, at most `readBudget` characters a call. A
 *   partial read starts with a header such as `[notes.md: characters 0–4000 of 9120; continues at offset
 *   4000]` (pagent's `readfile`), the last window with `…; end of file]`. Offsets count code points, so a
 *   window never splits a character (CJK, emoji).
 * - `write_file {path, content}` — replaces the file, creating parent folders: `wrote <path>`.
 * - `str_replace {path, old_string, new_string, replace_all?}` — `old_string` must occur exactly once
 *   (or `replace_all`); zero or several matches fail with the count and the file unchanged.
 * - `list_dir {path?}` — JSON `[{name, is_dir, size}]` (pagentv4's shape).
 *
 * Paths are relative to the workspace root; `..`, absolute paths and look-alike Unicode are refused.
 * Failures (missing file, refused path, quota) come back to the model as `ToolResult{ok: false}`.
 */
export function workspaceTools(workspace: Workspace, options: WorkspaceToolsOptions = {}): Tool<never>[] {
  const budget = options.readBudget ?? 4000;
  if (!Number.isInteger(budget) || budget < 1) throw new RangeError('workspaceTools: readBudget must be an integer >= 1');

  const readFile = tool<{ path: string; offset?: number; max_chars?: number }>({
    name: 'read_file',
    description: `Read a text file of the workspace, at most ${budget} characters per call. When the header says "continues at offset N", call again with offset N for the next part.`,
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'File path relative to the workspace root.' },
        offset: { type: 'integer', description: 'Character offset to start at (default 0).' },
        max_chars: { type: 'integer', description: `Characters to read (default and maximum ${budget}).` },
      },
      required: ['path'],
      additionalProperties: false,
    },
    async execute({ path, offset = 0, max_chars = budget }) {
      if (offset < 0) throw new Error(`offset must be >= 0, got ${offset}`);
      const size = Math.max(1, Math.min(max_chars, budget));
      const text = await workspace.read(path);
      const w = textWindow(text, offset, size);
      if (offset > w.total) throw new Error(`offset ${offset} is past the end of ${path} (${w.total} characters)`);
      if (offset === 0 && w.end >= w.total) return text;
      const tail = w.end < w.total ? `continues at offset ${w.end}` : 'end of file';
      return `[${path}: characters ${w.start}–${w.end} of ${w.total}; ${tail}]\n${w.text}`;
    },
  });

  const writeFile = tool<{ path: string; content: string }>({
    name: 'write_file',
    description: 'Write a text file in the workspace (creates parent folders). The whole file is replaced.',
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'File path relative to the workspace root.' },
        content: { type: 'string', description: 'The complete new text of the file.' },
      },
      required: ['path', 'content'],
      additionalProperties: false,
    },
    async execute({ path, content }) {
      await workspace.write(path, content);
      return `wrote ${path}`;
    },
  });

  const strReplace = tool<{ path: string; old_string: string; new_string: string; replace_all?: boolean }>({
    name: 'str_replace',
    description: 'Replace old_string with new_string in a file. old_string must match the file exactly (indentation and line breaks included) and occur exactly once, unless replace_all is true.',
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'File path relative to the workspace root.' },
        old_string: { type: 'string', description: 'The exact text to replace.' },
        new_string: { type: 'string', description: 'The replacement text.' },
        replace_all: { type: 'boolean', description: 'Replace every occurrence (only when old_string occurs several times on purpose).' },
      },
      required: ['path', 'old_string', 'new_string'],
      additionalProperties: false,
    },
    async execute({ path, old_string, new_string, replace_all = false }) {
      if (old_string === '') throw new Error('old_string must not be empty');
      const text = await workspace.read(path);
      const parts = text.split(old_string);
      const count = parts.length - 1;
      if (count === 0) throw new Error(`old_string was not found in ${path}; read the file and copy the text exactly`);
      if (count > 1 && !replace_all) {
        throw new Error(`old_string occurs ${count} times in ${path}; add surrounding lines to make it unique, or set replace_all`);
      }
      await workspace.write(path, parts.join(new_string));
      return JSON.stringify({ ok: true, path, replacements: count });
    },
  });

  const listDir = tool<{ path?: string }>({
    name: 'list_dir',
    description: 'List a folder of the workspace. Returns JSON: [{name, is_dir, size}].',
    parameters: {
      type: 'object',
      properties: { path: { type: 'string', description: 'Folder path relative to the workspace root (default: the root).' } },
      additionalProperties: false,
    },
    async execute({ path = '.' }) {
      const entries = await workspace.list(path);
      return JSON.stringify(entries.map((e) => ({ name: e.name, is_dir: e.kind === 'directory', size: e.size })));
    },
  });

  return [readFile, writeFile, strReplace, listDir] as Tool<never>[];
}
