/**
 * Safe, incremental markdown for untrusted model text.
 *
 * Parser: streaming-markdown 0.2.15 (thetarnav), chosen by size, speed and safety:
 * - size (esbuild, minified + gzip -9, the imports used here): streaming-markdown 2.9 kB; marked 15.7 kB;
 *   marked + DOMPurify 27.8 kB; micromark 16.4 kB (before its GFM table extension). This module with
 *   safe-url and the parser: 19.4 kB min, 7.0 kB min+gzip (`npm run bench -- markdown`).
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
 * Fixes on top of the parser, made on the text before it reaches the parser (stand-in characters the
 * renderer turns back) so every split of the text renders alike:
 * - a link destination cut by a newline or the end of the text is shown as the literal text (the parser
 *   would swallow everything after it); balanced parentheses stay in a destination; `[1]` without a
 *   destination keeps its brackets; inline `$…$`/`\(…\)` keep their delimiters (no math rendering);
 *   `\r` is dropped.
 * - a backslash escapes only ASCII punctuation (CommonMark §2.4): `\ `, `\` before a tab or a non-ASCII
 *   character, and a trailing `\` stay literal (the parser dropped them).
 * - underscore emphasis follows CommonMark's flanking rules (§6.2) where the parser opened it anywhere: a
 *   `_`/`__` run between word characters (`snake_case`, `a__b__c`) is text, and so is one after a word
 *   character and before punctuation (`foo_(bar)`) unless an underscore emphasis is open. As the spec
 *   says, `__init__`, `__proto__` and `<b>__init__</b>` (raw HTML shown as text) read as strong.
 * - `1)` opens an ordered list item like `1.` (not inside code).
 * - a heading's closing `#` sequence and trailing spaces are dropped (`## Title ##` reads "Title").
 * - a fenced code block inside a list item no longer ends the list at the next item's marker, and a
 *   blank line inside an item no longer ends the list when the next line is indented into the item.
 * - character references (§2.5) in text are decoded as text: numeric ones and the common named ones
 *   (`&amp;`, `&lt;`, `&nbsp;`, `&copy;`, `&rarr;`…; other names stay as written); `&#42;` is a `*`, never
 *   emphasis. In code, in raw URLs and in link destinations (which safeUrl decodes) they stay as written.
 * - quotes and lists nest at most 32 elements deep (deeper ones add no element): a line of 20,000 `>`
 *   took 1.3 s to render as 20,000 nested blockquotes, and takes 34 ms.
 * Known limits (the parser's, kept): an opener with no closer yet renders as emphasis while it streams
 * and stays so (`__a__b end` is strong); references to control characters stay as written, and a
 * decoded digit at a line start can start a list (`&#49;. x`); raw HTML is always text; a second
 * paragraph of a list item shows as a line break in it; a fence in a nested item leaves the list (which
 * goes on as a new list after it); lines after a list item or a blockquote join it (lazy continuation,
 * also for a heading after a blockquote); `1.` and `1)` items continue one list; reference-style links
 * (`[a][1]`) are not resolved; the private-use characters U+E000–U+E004 (the stand-ins) read as `)`,
 * `_`, `\`, `[` and `(`.
 */
import {
  BLOCKQUOTE, CHECKBOX, CHECKED, CODE_BLOCK, CODE_FENCE, CODE_INLINE, DOCUMENT, EQUATION_BLOCK,
  EQUATION_INLINE, HEADING_1, HEADING_2, HEADING_3, HEADING_4, HEADING_5, HEADING_6, HREF, IMAGE,
  ITALIC_AST, ITALIC_UND, LANG, LINE_BREAK, LINK, LIST_ITEM, LIST_ORDERED, LIST_UNORDERED, NEWLINE, PARAGRAPH,
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
   * bounded look-back within the current line; earlier output is never re-parsed or rebuilt. Text that
   * the next characters decide waits for them: a line start (at most 64 characters), a trailing `\`,
   * `_` run or `&…` reference (at most 41 characters), a heading's trailing `#`s and blank lines inside
   * a list item. Ignored after {@link MarkdownStream.end}.
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
/** Stands in for a `_` that cannot open or close emphasis (CommonMark §6.2), which the parser would read as one. */
const UNDERSCORE = '\ue001';
/** Stands in for a literal `\` (one before a space, tab or non-ASCII character), which the parser would drop. */
const BACKSLASH = '\ue002';
/** Stand in for a `[` and a `(` decoded from character references, which must not open a link. */
const BRACKET = '\ue003';
const OPEN_PAREN = '\ue004';
const STAND_INS = /[\ue000-\ue004]/g;
const RESTORED: Record<string, string> = { [PAREN]: ')', [UNDERSCORE]: '_', [BACKSLASH]: '\\', [BRACKET]: '[', [OPEN_PAREN]: '(' };
const restore = (value: string): string => value.replace(STAND_INS, (c) => RESTORED[c]!);
/** A backslash before one of these is left to the parser: an escape (ASCII punctuation), a line end, or text. */
const ESCAPABLE = /[!-/:-@[-`{-~\n0-9A-Za-z]/;
const WHITESPACE = /^\s$/u;
const PUNCTUATION = /^[\p{P}\p{S}]$/u;
/** A character reference (CommonMark §2.5) and what may still grow into one at the end of a chunk. */
const REFERENCE = /^&(?:#([0-9]{1,7})|#[xX]([0-9a-fA-F]{1,6})|([A-Za-z][A-Za-z0-9]{1,31}));/;
const PARTIAL_REFERENCE = /^&(?:#[0-9]{0,7}|#[xX][0-9a-fA-F]{0,6}|[A-Za-z][A-Za-z0-9]{0,31})?$/;
/** The named references decoded; any other name is shown as written. */
const NAMED: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', ensp: '\u2002', emsp: '\u2003',
  thinsp: '\u2009', zwnj: '\u200c', zwj: '\u200d', shy: '\u00ad', copy: '©', reg: '®', trade: '™',
  hellip: '…', mdash: '—', ndash: '–', lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”', laquo: '«',
  raquo: '»', times: '×', divide: '÷', minus: '−', plusmn: '±', deg: '°', middot: '·', bull: '•',
  larr: '←', rarr: '→', uarr: '↑', darr: '↓', harr: '↔', lArr: '⇐', rArr: '⇒', hArr: '⇔', le: '≤',
  ge: '≥', ne: '≠', asymp: '≈', infin: '∞', sum: '∑', micro: 'µ', para: '¶', sect: '§', cent: '¢',
  pound: '£', euro: '€', yen: '¥', frac12: '½', frac14: '¼', frac34: '¾', sup2: '²', sup3: '³',
  check: '✓', hearts: '♥', iexcl: '¡', iquest: '¿',
};
const ASCII_PUNCTUATION = /^[!-/:-@[-`{-~]$/;
/** What a line may start with before it is known to be an ordered list item or a heading. */
const LINE_HEAD = /^[ \t]*(?:>[ \t]*)*(?:\d{1,9}[.)]?|#{1,6}|[-*+])?$/;
/** Longer line starts (deep `>` nesting, long indentation) are passed on undecided. */
const MAX_HEAD = 64;
const BLANK_LINE = /^[ \t]*\n$/;
const LIST_MARK = /^[ \t]*(?:\d{1,9}[.)]|[-*+])[ \t]$/;
const ORDERED_PAREN = /^([ \t]*(?:>[ \t]*)*\d{1,9})\)([ \t])$/;
const HEADING_MARK = /^[ \t]*(?:>[ \t]*)*#{1,6} $/;

const MAX_DEPTH = 32;
const CONTAINERS = new Set<number>([BLOCKQUOTE, LIST_ORDERED, LIST_UNORDERED, LIST_ITEM]);

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
      // Past MAX_DEPTH, quotes and lists add no element (thousands of `>` would nest that deep in the DOM).
      const flat = frames.length >= MAX_DEPTH && CONTAINERS.has(token);
      frame.el = flat ? top().el : element(token, top().el, frame);
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
              frame.token === RAW_URL ? value.replace(/[.,:;!?'"*_~>)\]\\]+$/, '') : destination(value),
            );
          }
          return;
        }
        case LANG:
          if (LANGUAGE.test(value)) attr(el as Element, 'data-lang', value);
          return;
        case START: {
          const start = Number(value);
          if (Number.isInteger(start) && start >= 0 && start < 1e9 && el.tagName === 'OL') attr(el, 'start', String(start));
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

  const emit = (text: string): void => {
    let start = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
      writeLine(text.slice(start, nl));
      closeOpenDestination();
      write('\n');
      previous = '\n';
      start = nl + 1;
    }
    writeLine(text.slice(start));
  };
  const opened = (token: number): boolean => {
    // The parser keeps at most p.tokens.length tokens; p.len counts on past that in deep nesting.
    for (let i = 1, n = Math.min(p.len, p.tokens.length - 1); i <= n; i++) if (p.tokens[i] === token) return true;
    return false;
  };

  // Text in code (or about to open an inline code span, or a line indented as code) and in a link
  // destination keeps its references as written; safeUrl decodes those in a URL itself.
  const inCode = (): boolean =>
    opened(CODE_INLINE) || opened(CODE_FENCE) || opened(CODE_BLOCK) || p.token === RAW_URL ||
    p.pending.startsWith('`') ||
    (p.token !== LINE_BREAK && p.indent_len + (p.pending === ' ' ? 1 : p.pending === '\t' ? 4 : 0) >= 4);
  /** The text that stands for a character reference: decoded, ASCII punctuation escaped, else undefined. */
  const referenceValue = (ref: RegExpExecArray): string | undefined => {
    let value: string | undefined;
    if (ref[3] !== undefined) value = NAMED[ref[3]];
    else {
      const code = ref[1] !== undefined ? Number(ref[1]) : Number.parseInt(ref[2]!, 16);
      if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) value = '\ufffd';
      else if (code >= 0x20 && code !== 0x7f) value = String.fromCodePoint(code);
    }
    if (value === undefined) return undefined;
    // Decoded punctuation is text, never markdown (escaped; `\(` and `\[` would open TeX).
    if (value === '[') return BRACKET;
    if (value === '(') return OPEN_PAREN;
    return ASCII_PUNCTUATION.test(value) ? `\\${value}` : value;
  };

  // Inline stage. The parser drops a backslash before any character that is not a letter or digit, and
  // opens underscore emphasis anywhere; CommonMark escapes only ASCII punctuation (§2.4) and never reads
  // an intraword `_` as emphasis (§6.2). A trailing `\` or `_` run waits for the next character.
  let held = '';
  let prev = '\n';
  const kind = (c: string): 'space' | 'punct' | 'word' =>
    WHITESPACE.test(c) ? 'space' : PUNCTUATION.test(c) ? 'punct' : 'word';
  const underscores = (run: string, next: string): string => {
    const before = kind(prev);
    const after = kind(next);
    // Between word characters a run neither opens nor closes; after a word character and before
    // punctuation it can only close, so it is text unless an underscore emphasis is open.
    const literal =
      before === 'word' && (after === 'word' || (after === 'punct' && !opened(ITALIC_UND) && !opened(STRONG_UND)));
    return literal ? UNDERSCORE.repeat(run.length) : run;
  };
  const lastChar = (s: string, end: number): string => {
    const code = s.charCodeAt(end - 1);
    return code >= 0xdc00 && code <= 0xdfff && end >= 2 ? s.slice(end - 2, end) : s.charAt(end - 1);
  };
  const SPECIAL = /[\\_&]/g;
  const inlinePush = (text: string): void => {
    if (held.startsWith('_')) {
      let k = 0;
      while (text[k] === '_') k++;
      if (k === text.length) {
        held += text;
        return;
      }
    }
    const s = held + text;
    held = '';
    let out = '';
    let i = 0;
    while (i < s.length) {
      SPECIAL.lastIndex = i;
      const k = SPECIAL.exec(s)?.index ?? s.length;
      if (k > i) {
        out += s.slice(i, k);
        prev = lastChar(s, k);
        i = k;
        if (k === s.length) break;
      }
      if (s[i] === '\\') {
        const next = s[i + 1];
        if (next === undefined) {
          held = '\\';
          break;
        }
        if (ESCAPABLE.test(next)) {
          out += s.slice(i, i + 2);
          prev = next;
          i += 2;
        } else {
          out += BACKSLASH;
          prev = '\\';
          i += 1;
        }
        continue;
      }
      if (s[i] === '&') {
        const ref = REFERENCE.exec(s.slice(i, i + 42));
        if (!ref && s.length - i < 42 && PARTIAL_REFERENCE.test(s.slice(i))) {
          held = s.slice(i);
          break;
        }
        const value = ref ? referenceValue(ref) : undefined;
        if (value === undefined) {
          out += '&';
          prev = '&';
          i += 1;
          continue;
        }
        emit(out);
        out = '';
        emit(inCode() || inDestination() ? ref![0] : value);
        prev = lastChar(value.replace('\\', ''), value.replace('\\', '').length);
        i += ref![0].length;
        continue;
      }
      let j = i + 1;
      while (s[j] === '_') j++;
      if (j === s.length) {
        held = s.slice(i);
        break;
      }
      emit(out);
      out = '';
      emit(underscores(s.slice(i, j), String.fromCodePoint(s.codePointAt(j)!)));
      prev = '_';
      i = j;
    }
    emit(out);
  };
  const inlineEnd = (): void => {
    if (held === '\\') emit(BACKSLASH);
    else if (held.startsWith('&')) emit(held);
    else if (held !== '') emit(underscores(held, '\n'));
    held = '';
  };

  // Block stage: the start of each line is held until it is known whether it opens an ordered list item
  // with a `1)` marker (which the parser reads only as `1.`) or a heading, and a heading line's closing
  // `#` sequence (CommonMark §4.2) is held until the line ends, where it is dropped.
  let head: string | null = '';
  let heading = false;
  let headingEmpty = false;
  let tail: [string, string, string] = ['', '', ''];
  // Blank lines inside a list item wait for the next line: the parser ends the item at a blank line,
  // so when the next line is indented into the item (a fence, a paragraph) or is the next item's marker
  // right after a fence, they are dropped and the item goes on.
  let blanks = 0;
  const indentOf = (s: string): number => /^[ \t]*/.exec(s)![0].replaceAll('\t', '    ').length;
  const continuesItem = (s: string): boolean => {
    let content = Infinity;
    for (let i = Math.min(p.len, p.tokens.length - 1); i >= 1; i--) {
      if (p.tokens[i] === LIST_ITEM) {
        content = p.spaces[i]!;
        break;
      }
    }
    return (
      (indentOf(s) >= content && !/^[ \t]*\n$/.test(s)) ||
      (p.token === NEWLINE && p.tokens[p.len] === LIST_ITEM && LIST_MARK.test(s))
    );
  };
  const decideHead = (s: string): string => {
    const indent = indentOf(s);
    const allowed = !opened(CODE_FENCE) && (indent < 4 || (opened(LIST_ITEM) && !opened(CODE_BLOCK)));
    if (!allowed) return s;
    if (p.token === NEWLINE && p.tokens[p.len] === LIST_ITEM && LIST_MARK.test(s)) {
      // A code fence just closed inside a list item: the parser would end the list at the next line's
      // lower indent, so it reads the next item's marker as it does after a paragraph line of the item.
      p.token = LINE_BREAK;
    }
    const ordered = ORDERED_PAREN.exec(s);
    if (ordered) return `${ordered[1]}.${ordered[2]}`;
    if (HEADING_MARK.test(s)) {
      heading = true;
      headingEmpty = true;
    }
    return s;
  };
  const blockPush = (text: string): void => {
    let out = '';
    let i = 0;
    while (i < text.length) {
      if (head !== null) {
        const c = text[i++]!;
        const s = head + c;
        if (c !== '\n' && s.length <= MAX_HEAD && LINE_HEAD.test(s)) {
          head = s;
          continue;
        }
        head = null;
        inlinePush(out);
        out = '';
        if (c === '\n' && BLANK_LINE.test(s) && (blanks > 0 || (opened(LIST_ITEM) && !opened(CODE_FENCE)))) {
          blanks += 1;
          head = '';
          continue;
        }
        if (blanks > 0) {
          if (!continuesItem(s)) inlinePush('\n'.repeat(blanks));
          blanks = 0;
        }
        out = decideHead(s);
        if (c === '\n') {
          heading = false;
          head = '';
        }
        continue;
      }
      if (heading) {
        const c = text[i++]!;
        if (c === '\n') {
          tail = ['', '', ''];
          heading = false;
          head = '';
          out += c;
          continue;
        }
        // tail: [spaces, #s, spaces] after the text so far, the candidate closing sequence.
        const space = c === ' ' || c === '\t';
        if (space) {
          if (tail[1] === '' && !headingEmpty) tail[0] += c;
          else tail[2] += c;
        } else if (c === '#' && (tail[0] !== '' || headingEmpty || tail[1] !== '')) {
          if (tail[2] !== '') {
            out += tail[0] + tail[1];
            tail = [tail[2], '', ''];
            headingEmpty = false;
          }
          tail[1] += c;
        } else {
          out += tail.join('') + c;
          tail = ['', '', ''];
          headingEmpty = false;
        }
        continue;
      }
      const nl = text.indexOf('\n', i);
      if (nl === -1) {
        out += text.slice(i);
        break;
      }
      out += text.slice(i, nl + 1);
      i = nl + 1;
      head = '';
    }
    inlinePush(out);
  };

  return {
    append(chunk) {
      if (ended) return;
      blockPush(chunk.includes('\r') ? chunk.replace(/\r/g, '') : chunk);
    },
    end() {
      if (ended) return;
      ended = true;
      if (blanks > 0) inlinePush('\n'.repeat(blanks));
      if (head !== null && head !== '') inlinePush(head);
      inlineEnd();
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
