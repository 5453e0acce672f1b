/**
 * The syntax highlighter (a lazily loaded chunk): CodeMirror's legacy-mode stream tokenizers (one small
 * chunk per language, loaded on its first block) run over each finished line once, carrying their state
 * from line to line, so a streaming block costs one tokenization per line and settled lines are never
 * looked at again. A finished line's Text node is replaced, once, by its tokens: `<span class="pagent-hl-…">`
 * for coloured ones (rules in the code's shadow root colour them with theme tokens), text for the rest.
 * The spans are never touched again, so the browser repaints only the new line: the cost of a delta stays
 * the same at line 20 and at line 5,000. (Ranges in the CSS Custom Highlight registry were tried first:
 * Chromium revalidates and repaints every registered range on each frame that changes the DOM, so a
 * screen full of highlighted code cost 1.4x a screen with a few lines, on every delta.)
 */
import { StringStream, type StreamParser } from '@codemirror/streamparser';
import type { LineSink } from './highlight.js';
import { sliceScheduler, type SliceJob } from '../slices/scheduler.js';

/** Work counters of the highlighter, for tests and benchmarks. */
export const highlightStats = {
  /** Lines given to a language's tokenizer (each finished line once). */
  linesTokenized: 0,
  /** Token spans created. */
  spansCreated: 0,
};
const stats = highlightStats;
import { markdownMode } from './highlight-markdown.js';

// Info words (lower-cased) → the language's tokenizer in highlighter.ts.
const LANGUAGES: Record<string, string> = {};
for (const [key, words] of Object.entries({
  javascript: 'js javascript jsx mjs cjs node',
  typescript: 'ts typescript tsx mts cts',
  json: 'json jsonc json5',
  python: 'py python python3 py3',
  shell: 'sh bash shell zsh console shellsession',
  html: 'html htm xhtml vue svelte',
  xml: 'xml svg xsl plist',
  css: 'css',
  scss: 'scss sass',
  less: 'less',
  sql: 'sql postgres postgresql mysql sqlite plsql',
  go: 'go golang',
  rust: 'rs rust',
  java: 'java',
  c: 'c h',
  cpp: 'cpp c++ cc cxx hpp hh hxx',
  csharp: 'cs csharp c#',
  kotlin: 'kt kotlin',
  yaml: 'yaml yml',
  markdown: 'md markdown',
  diff: 'diff patch',
})) {
  for (const word of words.split(' ')) LANGUAGES[word] = key;
}

/** The tokenizer key for a fenced block's language word, or `undefined` when we do not highlight it. */
export function highlightLanguage(word: string): string | undefined {
  const key = word.toLowerCase();
  return Object.hasOwn(LANGUAGES, key) ? LANGUAGES[key] : undefined;
}

type Mode = StreamParser<unknown>;
const modes: Record<string, () => Promise<Mode>> = {
  javascript: () => import('@codemirror/legacy-modes/mode/javascript').then((m) => m.javascript),
  typescript: () => import('@codemirror/legacy-modes/mode/javascript').then((m) => m.typescript),
  json: () => import('@codemirror/legacy-modes/mode/javascript').then((m) => m.json),
  python: () => import('@codemirror/legacy-modes/mode/python').then((m) => m.python),
  shell: () => import('@codemirror/legacy-modes/mode/shell').then((m) => m.shell),
  html: () => import('@codemirror/legacy-modes/mode/xml').then((m) => m.html),
  xml: () => import('@codemirror/legacy-modes/mode/xml').then((m) => m.xml),
  css: () => import('@codemirror/legacy-modes/mode/css').then((m) => m.css),
  scss: () => import('@codemirror/legacy-modes/mode/css').then((m) => m.sCSS),
  less: () => import('@codemirror/legacy-modes/mode/css').then((m) => m.less),
  sql: () => import('@codemirror/legacy-modes/mode/sql').then((m) => m.standardSQL),
  go: () => import('@codemirror/legacy-modes/mode/go').then((m) => m.go),
  rust: () => import('@codemirror/legacy-modes/mode/rust').then((m) => m.rust),
  java: () => import('@codemirror/legacy-modes/mode/clike').then((m) => m.java),
  c: () => import('@codemirror/legacy-modes/mode/clike').then((m) => m.c),
  cpp: () => import('@codemirror/legacy-modes/mode/clike').then((m) => m.cpp),
  csharp: () => import('@codemirror/legacy-modes/mode/clike').then((m) => m.csharp),
  kotlin: () => import('@codemirror/legacy-modes/mode/clike').then((m) => m.kotlin),
  yaml: () => import('@codemirror/legacy-modes/mode/yaml').then((m) => m.yaml),
  diff: () => import('@codemirror/legacy-modes/mode/diff').then((m) => m.diff),
  markdown: () => Promise.resolve(markdownMode),
};
const loaded = new Map<string, Promise<Mode>>();

/** The highlight names (each a `::highlight(pagent-…)` rule) and the token tags that map to them. */
const CLASSES: Record<string, string> = {};
for (const [name, tags] of Object.entries({
  keyword: 'keyword controlKeyword operatorKeyword modifier definitionKeyword moduleKeyword self',
  string: 'string string-2 character regexp escape special url',
  comment: 'comment lineComment blockComment docComment quote',
  number: 'number atom bool integer float unit null',
  def: 'def definition function variable-definition macroName',
  type: 'type typeName className namespace builtin standard tag tagName qualifier variable-3 variable-2 labelName',
  property: 'property propertyName attribute attributeName maybeprop prop',
  meta: 'meta annotation processingInstruction documentMeta link',
  heading: 'header heading strong emphasis',
  inserted: 'inserted positive',
  deleted: 'deleted negative',
})) {
  for (const tag of tags.split(' ')) CLASSES[tag] = name;
}

/** The highlight name for a token's style string (`"keyword"`, `"variableName.definition"`, `"error deleted"`). */
function classOf(style: string): string | undefined {
  let found: string | undefined;
  for (const word of style.split(' ')) {
    for (const part of word.split('.').reverse()) {
      const name = CLASSES[part];
      if (name) {
        found = name;
        break;
      }
    }
  }
  return found;
}

/** Lines longer than this (minified code, data blobs) stay plain: a tokenizer's work per line stays bounded. */
const MAX_LINE = 5_000;

const adopted = new WeakSet<Node>();

/** Puts the colour rules into the code's shadow root (or document) once. */
function adoptStyles(root: Node): boolean {
  if (!(root instanceof ShadowRoot || root instanceof Document)) return false;
  if (!adopted.has(root)) {
    adopted.add(root);
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, styleSheet()];
  }
  return true;
}

let sheet: CSSStyleSheet | undefined;
function styleSheet(): CSSStyleSheet {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(HIGHLIGHT_CSS);
  }
  return sheet;
}

// Colours on the code block's surface meet WCAG AA (4.5:1) in both themes; each is a `--pagent-code-*` token.
const LIGHT: Record<string, string> = {
  keyword: '#b3261e', string: '#0a3069', comment: '#5b6470', number: '#0550ae', def: '#6639ba', type: '#8a3b00',
  property: '#0b5cd5', meta: '#6e5600', heading: '#0550ae', inserted: '#116329', deleted: '#82071e',
};
const DARK: Record<string, string> = {
  keyword: '#ff7b72', string: '#a5d6ff', comment: '#9aa4b0', number: '#79c0ff', def: '#d2a8ff', type: '#ffa657',
  property: '#56d4dd', meta: '#e3c26b', heading: '#79c0ff', inserted: '#7ee787', deleted: '#ffa198',
};
const tokens = (palette: Record<string, string>): string =>
  Object.entries(palette).map(([name, colour]) => `--_hl-${name}: var(--pagent-code-${name}, ${colour});`).join('');
const HIGHLIGHT_CSS = `:host, :root { ${tokens(LIGHT)} }
@media (prefers-color-scheme: dark) { :host(:not([theme='light'])), :root { ${tokens(DARK)} } }
:host([theme='dark']) { ${tokens(DARK)} }
${Object.keys(LIGHT).map((name) => `.pagent-hl-${name} { color: var(--_hl-${name}); }`).join('\n')}`;

/**
 * Loads the language's tokenizer and returns the sink for one code block's lines (`null`: not a language
 * we know). A line is tokenized at once while the task has budget left (a streamed line); lines past it (a
 * stored block of thousands of lines, or all those that waited for this chunk) wait in the slice queue and
 * are tokenized a slice per task, in order, showing plain until then; `signal` drops those still waiting.
 */
export async function createLineSink(word: string, code: HTMLElement, signal?: AbortSignal): Promise<LineSink | null> {
  const language = highlightLanguage(word);
  if (language === undefined) return null;
  let mode = loaded.get(language);
  if (!mode) {
    mode = modes[language]!();
    loaded.set(language, mode);
    mode.catch(() => loaded.delete(language));
  }
  const parser = await mode;
  const state = parser.startState?.(2) ?? null;
  let styled = false;
  let broken = false;
  const waiting: Array<[Text | null, number, number]> = [];
  let head = 0;
  const job: SliceJob = {
    get pending() {
      return head < waiting.length && !signal?.aborted;
    },
    run() {
      while (head < waiting.length && sliceScheduler.left > 0 && !signal?.aborted) {
        const [node, offset, end] = waiting[head]!;
        waiting[head++] = [null, 0, 0];
        sliceScheduler.spend(cost(offset, end));
        tokenize(node, offset, end);
      }
      if (head === waiting.length) waiting.length = head = 0;
    },
  };
  return {
    line(node, offset, end = node?.length ?? 0) {
      if (signal?.aborted) return;
      if (head === waiting.length && sliceScheduler.tryNow(cost(offset, end))) {
        tokenize(node, offset, end);
        return;
      }
      waiting.push([node, offset, end]);
      sliceScheduler.enqueue(job, signal);
    },
  };

  function tokenize(node: Text | null, offset: number, end: number): void {
    if (broken) return;
    if (!styled) styled = adoptStyles(code.getRootNode());
    stats.linesTokenized += 1;
    const text = node ? node.data.slice(offset, end) : '';
    if (text === '' || node === null) {
      parser.blankLine?.(state, 2);
      return;
    }
    if (text.length > MAX_LINE) return;
    const stream = new StringStream(text, 4, 2);
    // [highlight name or '', end offset] of each run of the line
    const runs: Array<[string, number]> = [];
    let current = '';
    let stuck = 0;
    try {
      while (!stream.eol()) {
        stream.start = stream.pos;
        const style = parser.token(stream, state);
        if (stream.pos === stream.start) {
          if (++stuck > 8) break; // a tokenizer that stops advancing: the rest of the line stays plain
          continue;
        }
        stuck = 0;
        const name = (style && classOf(style)) || '';
        if (name !== current && stream.start > 0) runs.push([current, stream.start]);
        current = name;
      }
    } catch {
      broken = true; // a tokenizer fault: the rest of the block stays plain
      return;
    }
    runs.push([current, text.length]);
    if (runs.every(([name]) => name === '')) return;
    replaceLine(node, offset, end, runs);
  }
}

/** A line's share of a task's budget: its characters and its line end (so blank lines count too). */
const cost = (start: number, end: number): number => end - start + 1;

/** Replaces the line `[offset, end)` of `node` by its runs; text before and after it stays as it is. */
function replaceLine(node: Text, offset: number, end: number, runs: Array<[string, number]>): void {
  const doc = node.ownerDocument;
  const parts = doc.createDocumentFragment();
  const data = node.data;
  if (offset > 0) parts.append(data.slice(0, offset));
  let from = offset;
  for (const [name, to] of runs) {
    const piece = data.slice(from, offset + to);
    from = offset + to;
    if (piece === '') continue;
    if (name === '') {
      parts.append(piece);
      continue;
    }
    const span = doc.createElement('span');
    span.className = `pagent-hl-${name}`;
    span.textContent = piece;
    parts.append(span);
    stats.spansCreated += 1;
  }
  if (end < data.length) parts.append(data.slice(end));
  node.replaceWith(parts);
}
