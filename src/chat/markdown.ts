/**
 * Safe, incremental CommonMark + GFM for untrusted model text.
 *
 * The parser is our own (`./markdown/`): CommonMark 0.31.2's algorithm as its reference implementation
 * commonmark.js has it (blocks line by line, inlines with delimiter and bracket stacks), GFM tables,
 * strikethrough, task lists and autolinks as cmark-gfm has them, rebuilt to stream: a line is applied as
 * soon as its block structure is decided, closed blocks are never touched again, and inside the open
 * paragraph only the text that later characters could still change is parsed again (see `leaf.ts`). The
 * DOM is built node by node (never `innerHTML`), so no sanitiser is needed.
 *
 * Deliberate deviations from CommonMark (each with its reason, also in docs/guides/markdown.md):
 * - raw HTML (inline and blocks) is shown as its text, never parsed: model output is untrusted;
 * - a link or image whose URL is not http, https, mailto or relative is shown as its text, and an image
 *   loads only when {@link MarkdownOptions.allowImage} allows its URL;
 * - an opener and its closer (emphasis, link brackets, code span backticks, raw-HTML ends) match only
 *   within 4,096 characters, so what a new character can change stays bounded;
 * - block quotes, lists and items nest at most 32 deep (deeper markers are text);
 * - named character references outside the ~40 most common ones read as written until the full HTML5 table
 *   (a lazily loaded 10 kB chunk) arrives, then the text using them is rendered again;
 * - a paragraph past 2,048 characters is split into block-level `<div>` chunks at soft line breaks (a line
 *   with none for 8,192 characters: after a space), and a code block into chunks of 100 lines, so the
 *   browser lays out only the last chunk per update (a soft line break or a space at a chunk boundary
 *   shows as a line break);
 * - a table past 100 rows has a `<tbody>` per 100 rows, with column widths set on the first row of each
 *   section (see `markdown/table.ts`), so the browser lays out only the last one per row.
 */
import { MarkdownDocument } from './markdown/markdown-document.js';
import type { MarkdownStats } from './markdown/inline-dom.js';

export { safeUrl } from './safe-url.js';
export type { MarkdownStats } from './markdown/inline-dom.js';

/** Options shared by {@link createMarkdownStream} and {@link renderMarkdown}. */
export interface MarkdownOptions {
  /**
   * Decides whether an image may load; called with the image URL resolved against the document, only
   * for http(s) URLs. An image that is refused shows its alt text (or its URL as text).
   * @defaultValue no image ever loads
   */
  allowImage?: (url: URL) => boolean;
  /**
   * The accessible label and text of the copy button on each code block (for localisation).
   * @defaultValue 'Copy code'
   */
  copyLabel?: string;
  /**
   * Renders TeX math: `$$…$$` and `\[…\]` (on its own line) as display math, `$…$` and `\(…\)` inline,
   * as MathML from a lazily loaded renderer (the source shows until it has loaded). A `$` opens math only
   * when a non-space follows it, and the next `$` closes it only after a non-space and before a non-digit,
   * so prices ("$5 and $10") stay text. An unclosed formula shows as its source.
   * @defaultValue true
   */
  math?: boolean;
  /**
   * The accessible name of a formula that scrolls in its box (one taller than `min(40em, 75vh)`, or
   * display math wider than the answer); such a box also gets a tab stop.
   * @defaultValue 'Formula'
   */
  mathLabel?: string;
  /**
   * The title of a formula too large to typeset (one that would expand to more than 10,000 tokens, build
   * more than 10,000 nodes or 4,500 MathML elements, or nest them more than 64 deep); it shows as its
   * source, marked as an error.
   * @defaultValue 'This formula is too large to show.'
   */
  mathTooLargeLabel?: string;
  /**
   * The accessible name of a task list item's checkbox (its state is the checkbox's own).
   * @defaultValue 'Task'
   */
  taskLabel?: string;
  /**
   * Stops the stream's deferred work when aborted: code lines still waiting to be highlighted (they wait
   * when more arrive at once than a task may tokenize, and while the highlighter loads) stay plain.
   */
  signal?: AbortSignal;
}

/** An incremental markdown renderer for one answer. */
export interface MarkdownStream {
  /**
   * Parses and renders `text`, the next piece of the answer. Costs the new characters plus the part of
   * the open paragraph that they can still change; closed blocks are never parsed or rebuilt again. A
   * line whose block structure the next characters decide (a line of only `-`, a code fence opener, a
   * line starting with `<`) is shown when they arrive. Ignored after {@link MarkdownStream.end}.
   */
  append(text: string): void;
  /** Ends the answer: the last line and every open block close. Idempotent. */
  end(): void;
  /** Running totals since the stream was created. */
  readonly stats: Readonly<MarkdownStats>;
}

function createStream(root: ParentNode, doc: Document, options: MarkdownOptions): MarkdownStream {
  const stats: MarkdownStats = { charsParsed: 0, nodesCreated: 0, nodesTouched: 0 };
  const mathLabels = { formula: options.mathLabel ?? 'Formula', tooLarge: options.mathTooLargeLabel ?? 'This formula is too large to show.' };
  const md = new MarkdownDocument({ doc, stats, allowImage: options.allowImage, signal: options.signal, mathLabels }, root, {
    copyLabel: options.copyLabel ?? 'Copy code',
    taskLabel: options.taskLabel ?? 'Task',
    math: options.math ?? true,
  });
  return {
    append: (text) => md.append(text),
    end: () => md.end(),
    stats,
  };
}

/**
 * Starts an incremental markdown render into `target`, which the stream owns (it is emptied first).
 *
 * Whatever the pieces given to {@link MarkdownStream.append}, once {@link MarkdownStream.end} is called the
 * DOM is the same as {@link renderMarkdown} builds from the whole text. Untrusted text only ever becomes
 * Text nodes: raw HTML shows as text, links become `<a href>` (with `rel="noopener noreferrer"` and
 * `target="_blank"`) only when their URL is http, https, mailto or relative, and images load only when
 * `options.allowImage` says so. Code blocks get a language label and a copy button.
 * @example
 * const md = createMarkdownStream(answerEl, { copyLabel: 'Copy' });
 * for await (const delta of agent.text('hi')) md.append(delta);
 * md.end();
 */
export function createMarkdownStream(target: HTMLElement, options: MarkdownOptions = {}): MarkdownStream {
  target.replaceChildren();
  return createStream(target, target.ownerDocument, options);
}

/**
 * Renders a whole markdown text into `target`, replacing its children, with the same parser and the same
 * safety rules as {@link createMarkdownStream} (it is that stream, fed once and ended).
 */
export function renderMarkdown(target: HTMLElement, text: string, options: MarkdownOptions = {}): void {
  const fragment = target.ownerDocument.createDocumentFragment();
  const stream = createStream(fragment, target.ownerDocument, options);
  stream.append(text);
  stream.end();
  target.replaceChildren(fragment);
}
