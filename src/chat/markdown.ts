/**
 * Safe, incremental markdown for untrusted model text.
 *
 * Parser: streaming-markdown 0.2.15 (thetarnav), chosen by size, speed and safety:
 * - size (esbuild, minified + gzip -9, the imports used here): streaming-markdown 2.9 kB; marked 15.7 kB;
 *   marked + DOMPurify 27.8 kB; micromark 16.4 kB (before its GFM table extension). This module with
 *   safe-url and the parser: 15.9 kB min, 5.4 kB min+gzip (`npm run bench -- markdown`).
 * - speed (Node 20, ~100 kB of mixed markdown, no DOM): streaming-markdown 4-5 MB/s whole or in 8-char
 *   deltas, marked 2.8 MB/s whole; but marked has no incremental mode, so a stream would re-parse the
 *   answer per delta: 7.4 s for 2,500 8-char deltas of a 20 kB answer against 5 ms here.
 * - safety: it never parses HTML (raw HTML stays text) and it calls a renderer we own for every node, so
 *   no innerHTML and no sanitiser are needed. As shipped it passes any link URL through
 *   (thetarnav/streaming-markdown#45); here every href and src goes through {@link safeUrl} and images
 *   through {@link MarkdownOptions.allowImage} before a live `<a href>` or `<img>` exists.
 * - work per delta (bench, Chromium): the same counters at the 10,000th delta as at the 100th, e.g. 4
 *   characters, ~1.7 nodes created and ~1.9 DOM mutations per delta of mixed markdown; re-rendering the
 *   whole answer instead would rebuild 5,200 elements per delta at the 10,000th.
 * Fixes on top of the parser: a link destination cut by a newline or the end of the text is shown as the
 * literal text (the parser would swallow everything after it); balanced parentheses stay in a
 * destination; `[1]` without a destination keeps its brackets; snake_case stays text; inline `$…$`/`\(…\)` keep their
 * delimiters (no math rendering); `\r` is dropped.
 */
import {
  BLOCKQUOTE, CHECKBOX, CHECKED, CODE_BLOCK, CODE_FENCE, CODE_INLINE, DOCUMENT, EQUATION_BLOCK,
  EQUATION_INLINE, HEADING_1, HEADING_2, HEADING_3, HEADING_4, HEADING_5, HEADING_6, HREF, IMAGE,
  ITALIC_AST, ITALIC_UND, LANG, LINE_BREAK, LINK, LIST_ITEM, LIST_ORDERED, LIST_UNORDERED, PARAGRAPH,
  RAW_URL, RULE, SRC, START, STRIKE, STRONG_AST, STRONG_UND, TABLE, TABLE_CELL, TABLE_ROW,
  parser, parser_end, parser_write, type Any_Renderer, type Attr, type Parser, type Token,
} from 'streaming-markdown';
import { safeUrl } from './safe-url.js';

export { safeUrl } from './safe-url.js';

/** Options shared by {@link createMarkdownStream} and {@link renderMarkdown}. */
export interface MarkdownOptions {
  /**
   * Decides whether an image may load; called with the image URL resolved against the document, only
   * for URLs {@link safeUrl} allows. An image that is refused shows its alt text (or its URL as text).
   * @defaultValue no image ever loads
   */
  allowImage?: (url: URL) => boolean;
  /**
   * The accessible label and text of the copy button on each code block (for localisation).
   * @defaultValue 'Copy code'
   */
  copyLabel?: string;
}

/** Deterministic work counters of a markdown stream, for tests and benchmarks. */
export interface MarkdownStats {
  /** Characters handed to the parser (the appended text, plus one per repaired link). */
  charsParsed: number;
  /** DOM nodes (elements and text nodes) created. */
  nodesCreated: number;
  /** DOM mutations made: insertions, attribute writes and replacements. */
  nodesTouched: number;
}

/** An incremental markdown renderer for one answer. */
export interface MarkdownStream {
  /**
   * Parses and renders `text`, the next piece of the answer. Costs only the new characters plus a
   * bounded look-back within the current line; earlier output is never re-parsed or rebuilt.
   * Ignored after {@link MarkdownStream.end}.
   */
  append(text: string): void;
  /** Flushes what the parser still holds (an open line, link or code block). Idempotent. */
  end(): void;
  /** Running totals since the stream was created. */
  readonly stats: Readonly<MarkdownStats>;
}

const DEFAULT_COPY_LABEL = 'Copy code';
const LANGUAGE = /^[A-Za-z0-9_+#.-]{1,40}$/;
/** Stands in for `)` inside a link destination while the parser reads it (a private-use character). */
const PAREN = '\ue000';
/** Stands in for an intraword `_` (as in snake_case), which CommonMark never reads as emphasis. */
const UNDERSCORE = '\ue001';
const INTRAWORD_UNDERSCORE = /(?<=[\p{L}\p{N}])_(?=[\p{L}\p{N}])/gu;
const STAND_INS = /[\ue000\ue001]/g;
const restore = (value: string): string =>
  value.replace(STAND_INS, (c) => (c === PAREN ? ')' : '_'));

interface Frame {
  token: number;
  /** Where children go: the element itself, or its <code> for code blocks. */
  el: ParentNode;
  /** Links and images: the destination was seen (so the element is final). */
  resolved?: boolean;
  /** Tables: the sections created so far. */
  head?: HTMLTableSectionElement;
  body?: HTMLTableSectionElement;
  /** Table rows: in the header section. */
  header?: boolean;
}

/** The URL of a link destination: `<url>` unwrapped, else up to the first space (a title may follow). */
function destination(value: string): string {
  const trimmed = value.trim();
  const angle = /^<([^<>\n]*)>/.exec(trimmed);
  return angle ? angle[1]!.replaceAll(' ', '%20') : (trimmed.split(/\s/, 1)[0] ?? '');
}

function createRenderer(root: ParentNode, options: MarkdownOptions, stats: MarkdownStats) {
  const doc = (root.ownerDocument ?? root) as Document;
  const frames: Frame[] = [{ token: DOCUMENT, el: root }];
  const copyLabel = options.copyLabel ?? DEFAULT_COPY_LABEL;
  const state = { literal: false, parser: undefined as Parser | undefined };

  const top = (): Frame => frames[frames.length - 1]!;
  const make = <K extends keyof HTMLElementTagNameMap>(tag: K): HTMLElementTagNameMap[K] => {
    stats.nodesCreated += 1;
    return doc.createElement(tag);
  };
  const text = (value: string): Text => {
    stats.nodesCreated += 1;
    return doc.createTextNode(value);
  };
  const put = <N extends Node>(parent: ParentNode, child: N): N => {
    stats.nodesTouched += 1;
    parent.appendChild(child);
    return child;
  };
  const attr = (el: Element, name: string, value: string): void => {
    stats.nodesTouched += 1;
    el.setAttribute(name, value);
  };
  /** Swaps a link/image placeholder for its final element, keeping the children streamed so far. */
  const swap = (frame: Frame, next: Element): void => {
    const old = frame.el as Element;
    stats.nodesTouched += 2;
    next.append(...old.childNodes);
    old.replaceWith(next);
    frame.el = next;
  };

  function codeBlock(parent: ParentNode): HTMLElement {
    const wrapper = put(parent, make('div'));
    attr(wrapper, 'part', 'code-block');
    const button = put(wrapper, make('button'));
    attr(button, 'type', 'button');
    attr(button, 'part', 'copy-button');
    attr(button, 'aria-label', copyLabel);
    put(button, text(copyLabel));
    const code = put(put(wrapper, make('pre')), make('code'));
    button.addEventListener('click', () => {
      const clipboard = doc.defaultView?.navigator.clipboard;
      if (!clipboard) return;
      clipboard.writeText(code.textContent ?? '').then(
        () => button.setAttribute('data-copied', ''),
        () => button.removeAttribute('data-copied'),
      );
    });
    return code;
  }

  function element(token: number, parent: ParentNode, frame: Frame): ParentNode {
    switch (token) {
      case PARAGRAPH: return put(parent, make('p'));
      case HEADING_1: return put(parent, make('h1'));
      case HEADING_2: return put(parent, make('h2'));
      case HEADING_3: return put(parent, make('h3'));
      case HEADING_4: return put(parent, make('h4'));
      case HEADING_5: return put(parent, make('h5'));
      case HEADING_6: return put(parent, make('h6'));
      case BLOCKQUOTE: return put(parent, make('blockquote'));
      case LINE_BREAK: return put(parent, make('br'));
      case RULE: return put(parent, make('hr'));
      case ITALIC_AST: case ITALIC_UND: return put(parent, make('em'));
      case STRONG_AST: case STRONG_UND: return put(parent, make('strong'));
      case STRIKE: return put(parent, make('s'));
      case CODE_INLINE: return put(parent, make('code'));
      case EQUATION_INLINE: {
        // No math rendering: inline TeX (and a stray `$`) reads as written, delimiters included.
        const span = put(parent, make('span'));
        put(span, text(state.parser?.pending === '$' ? '$' : '\\('));
        return span;
      }
      case CODE_BLOCK: case CODE_FENCE: case EQUATION_BLOCK: return codeBlock(parent);
      case LIST_UNORDERED: return put(parent, make('ul'));
      case LIST_ORDERED: return put(parent, make('ol'));
      case LIST_ITEM: return put(parent, make('li'));
      case CHECKBOX: {
        const box = put(parent, make('span'));
        attr(box, 'aria-hidden', 'true');
        put(box, text('☐ '));
        return box;
      }
      case TABLE: return put(parent, make('table'));
      case TABLE_ROW: {
        const table = top();
        if (!table.head) {
          table.head = put(table.el, make('thead'));
          frame.header = true;
          return put(table.head, make('tr'));
        }
        table.body ??= put(table.el, make('tbody'));
        return put(table.body, make('tr'));
      }
      case TABLE_CELL: return put(parent, make(top().header ? 'th' : 'td'));
      // Links and images start as inert text; they become <a href>/<img> only once their URL is checked.
      case LINK: case RAW_URL: case IMAGE: return put(parent, make('span'));
      default: return put(parent, make('span'));
    }
  }

  function setLink(frame: Frame, url: string): void {
    const safe = safeUrl(url);
    if (safe === null) return;
    const a = make('a');
    attr(a, 'href', safe);
    attr(a, 'rel', 'noopener noreferrer');
    attr(a, 'target', '_blank');
    attr(a, 'referrerpolicy', 'no-referrer');
    swap(frame, a);
  }

  function setImage(frame: Frame, url: string): void {
    const el = frame.el as Element;
    const safe = safeUrl(url);
    let absolute: URL | undefined;
    try {
      absolute = safe === null ? undefined : new URL(safe, doc.baseURI);
    } catch {
      absolute = undefined;
    }
    const allowed =
      absolute !== undefined &&
      (absolute.protocol === 'http:' || absolute.protocol === 'https:') &&
      options.allowImage?.(absolute) === true;
    if (allowed) {
      const img = make('img');
      attr(img, 'alt', el.textContent ?? '');
      attr(img, 'referrerpolicy', 'no-referrer');
      attr(img, 'loading', 'lazy');
      attr(img, 'src', safe!);
      stats.nodesTouched += 1;
      el.replaceWith(img);
      frame.el = img;
    } else if (el.firstChild === null) {
      put(el, text(url));
    }
  }

  const renderer = {
    data: undefined,
    add_token(_: unknown, token: Token) {
      const frame: Frame = { token, el: root };
      frame.el = element(token, top().el, frame);
      frames.push(frame);
    },
    end_token() {
      if (frames.length <= 1) return;
      const frame = frames.pop()!;
      if (frame.token === EQUATION_INLINE) {
        const pending = state.parser?.pending ?? '';
        if (pending.startsWith('$')) put(frame.el, text('$'));
        else if (pending === '\\') put(frame.el, text('\\)'));
      }
      if ((frame.token === LINK || frame.token === IMAGE) && !frame.resolved) {
        // `[1]` or `[label` with no destination: show the brackets the parser consumed.
        stats.nodesTouched += 1;
        (frame.el as Element).prepend(text(frame.token === IMAGE ? '![' : '['));
        if (state.parser?.pending === ']') put(frame.el, text(']'));
      }
    },
    add_text(_: unknown, value: string) {
      put(top().el, text(restore(value)));
    },
    set_attr(_: unknown, type: Attr, raw: string) {
      const frame = top();
      const value = restore(raw);
      const el = frame.el as Element;
      switch (type) {
        case HREF:
        case SRC: {
          frame.resolved = true;
          if (state.literal) {
            stats.nodesTouched += 1;
            el.prepend(text(frame.token === IMAGE ? '![' : '['));
            put(el, text(`](${value}`));
          } else if (frame.token === IMAGE) {
            setImage(frame, destination(value));
          } else {
            setLink(
              frame,
              // GFM autolinks end before trailing punctuation ("see https://x.example." links to the host).
              frame.token === RAW_URL ? value.replace(/[.,:;!?'"*_~>)\]]+$/, '') : destination(value),
            );
          }
          return;
        }
        case LANG:
          if (LANGUAGE.test(value)) attr(el as Element, 'data-lang', value);
          return;
        case START: {
          const start = Number(value);
          if (Number.isInteger(start) && start >= 0 && start < 1e9) attr(el, 'start', String(start));
          return;
        }
        case CHECKED:
          if (el.firstChild) {
            stats.nodesTouched += 1;
            el.firstChild.textContent = '☑ ';
          }
          return;
      }
    },
  } satisfies Any_Renderer;
  return { renderer, state };
}

function createStream(root: ParentNode, options: MarkdownOptions): MarkdownStream {
  const stats: MarkdownStats = { charsParsed: 0, nodesCreated: 0, nodesTouched: 0 };
  const { renderer, state } = createRenderer(root, options, stats);
  const p = parser(renderer);
  state.parser = p;
  let ended = false;

  const write = (chunk: string): void => {
    if (chunk === '') return;
    stats.charsParsed += chunk.length;
    parser_write(p, chunk);
  };
  const inDestination = (): boolean => (p.token === LINK || p.token === IMAGE) && p.pending.startsWith('](');
  // The parser ends a destination at its first `)`; CommonMark (§6.3) allows balanced parentheses in it
  // (Wikipedia URLs), so inner `)` reach the parser as a stand-in that the renderer turns back.
  let depth = 0;
  let previous = '';
  const writeLine = (line: string): void => {
    let i = 0;
    while (i < line.length) {
      if (inDestination()) {
        let j = i;
        for (; j < line.length; j++) {
          const c = line[j];
          if (c === '(') depth += 1;
          else if (c === ')') {
            if (depth === 0) break;
            depth -= 1;
          }
        }
        write(line.slice(i, j).replaceAll(')', PAREN));
        i = j;
        if (j < line.length) {
          write(')');
          i += 1;
        }
        continue;
      }
      // Write up to the next `](`, after which a destination may open.
      const open = line.indexOf('](', i);
      const end =
        (i === 0 ? previous : line[i - 1]) === ']' && line[i] === '(' ? i + 1 : open === -1 ? line.length : open + 2;
      write(line.slice(i, end));
      previous = line[end - 1] ?? previous;
      depth = 0;
      i = end;
    }
    if (line !== '') previous = line[line.length - 1]!;
  };
  // The parser keeps reading a link destination until `)`, across lines; a destination cannot hold a
  // line break (CommonMark §6.3), so at a newline or the end an open one is closed and shown as text.
  const closeOpenDestination = (): void => {
    if (inDestination()) {
      state.literal = true;
      write(')');
      state.literal = false;
    }
  };

  // An underscore between two letters or digits is text (CommonMark §6.2), which the parser does not
  // know; the last `_` of a chunk waits for the next character to decide.
  let held = '';
  let before = '';
  const guardUnderscores = (chunk: string): string => {
    let s = held + chunk;
    held = '';
    if (s.endsWith('_')) {
      held = '_';
      s = s.slice(0, -1);
    }
    if (s === '') return '';
    const out = s.includes('_') ? (before + s).replace(INTRAWORD_UNDERSCORE, UNDERSCORE).slice(before.length) : s;
    before = Array.from(s.slice(-2)).pop()!;
    return out;
  };

  return {
    append(chunk) {
      if (ended) return;
      const clean = guardUnderscores(chunk.includes('\r') ? chunk.replace(/\r/g, '') : chunk);
      let start = 0;
      for (let nl = clean.indexOf('\n'); nl !== -1; nl = clean.indexOf('\n', start)) {
        writeLine(clean.slice(start, nl));
        closeOpenDestination();
        write('\n');
        previous = '\n';
        start = nl + 1;
      }
      writeLine(clean.slice(start));
    },
    end() {
      if (ended) return;
      ended = true;
      if (held !== '') writeLine(held);
      closeOpenDestination();
      parser_end(p);
    },
    stats,
  };
}

/**
 * Starts an incremental markdown render into `target`, which the stream owns (it is emptied first).
 *
 * Each {@link MarkdownStream.append} parses only the new characters and adds DOM nodes for them; the
 * work per delta does not grow with the answer (see {@link MarkdownStream.stats}). Untrusted text is only
 * ever inserted as text nodes: raw HTML shows as text, links become `<a href>` (with
 * `rel="noopener noreferrer"` and `target="_blank"`) only when {@link safeUrl} allows their URL and stay
 * plain text otherwise, and images load only when `options.allowImage` says so. Supports headings,
 * paragraphs, nested lists, task items, tables, fenced and indented code (with a copy button), inline
 * code, emphasis, strong, strikethrough, links, autolinked `http(s)://` URLs, blockquotes and rules.
 * @example
 * const md = createMarkdownStream(answerEl, { copyLabel: 'Copy' });
 * for await (const delta of agent.text('hi')) md.append(delta);
 * md.end();
 */
export function createMarkdownStream(target: HTMLElement, options: MarkdownOptions = {}): MarkdownStream {
  target.replaceChildren();
  return createStream(target, options);
}

/**
 * Renders a whole markdown text into `target`, replacing its children, with the same parser and the same
 * safety rules as {@link createMarkdownStream} (it is that stream, fed once and ended).
 */
export function renderMarkdown(target: HTMLElement, text: string, options: MarkdownOptions = {}): void {
  const fragment = target.ownerDocument.createDocumentFragment();
  const stream = createStream(fragment, options);
  stream.append(text);
  stream.end();
  target.replaceChildren(fragment);
}
