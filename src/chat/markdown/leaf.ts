/**
 * The inline content of one paragraph or heading, rendered incrementally.
 *
 * The content is split at a moving point: before it, DOM that is final (settled: rendered once, never
 * parsed again); after it, the tail, re-parsed and re-rendered on each update. After each parse the point
 * moves to the first place whose rendering more text could still change: an opener, bracket, code span or
 * tag still waiting for its end ({@link InlineResult.pending}), or the last word (a trailing `*`, `&amp`,
 * `\`, URL or space is decided by what follows). So per update the work is the new text plus that
 * unsettled tail, not the paragraph. A long paragraph is also split into block-level chunks (at a soft
 * line break after {@link CHUNK_CHARS} characters, or after a space in a line longer than
 * {@link LINE_CHUNK_CHARS}), so the browser lays out only the last one.
 */
import { appendNode, createElement, renderInlines, type DomContext } from './inline-dom.js';
import { Inline, parseInlines, type InlineContext, type InlineResult } from './inlines.js';
import { unresolvedLookups } from './entities.js';
import { MAX_EMAIL } from './autolink.js';

/** Characters of text after which a long leaf starts a new chunk at its next soft line break. */
export const CHUNK_CHARS = 2048;
/**
 * Characters of a line after which a leaf starts a new chunk after its next space: one long line (an
 * answer with no line break) would otherwise be laid out whole on every update.
 */
export const LINE_CHUNK_CHARS = 4 * CHUNK_CHARS;
/** How far back a pending position may move to the start of its word. */
const WORD_BACK = 64;
/**
 * In a word longer than this, only its last this-many characters wait for what follows: nothing further
 * back can change (autolinks are at most 2,048 characters, references 33, email addresses 254).
 */
const LONG_WORD = 2304;
/** What may make a long word an autolink or hold an email address from far back. */
const RE_AUTOLINK_MARK = /@|:\/\/|www\./;
/** An email address's local part, and emphasis and strikethrough delimiters. */
const isEmailChar = (c: number): boolean =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 46 || c === 43 || c === 95 || c === 45;
/** An email address's characters (its local part, `@` and domain). */
const isEmailish = (c: number): boolean => isEmailChar(c) || c === 64;
const isDelimiter = (c: number): boolean => c === 42 || c === 95 || c === 126;
const isSpace = (c: number): boolean => c === 32 || c === 10 || c === 9 || c === 13 || c === 12 || c === 11;

/**
 * Where the undecided end of a long word with no autolink in it starts: what follows can still change
 * only its last {@link WORD_BACK} characters (an entity, a `www.` or a scheme being written), the run of
 * characters an email's local part is made of (an `@` may follow) or, after none, its run of delimiters
 * (whether they open depends on the next character).
 */
function lastWordEnd(text: string, word: number, end: number): number {
  let k = end;
  while (k > word && isEmailChar(text.charCodeAt(k - 1))) k--;
  if (k === end) while (k > word && isDelimiter(text.charCodeAt(k - 1))) k--;
  return Math.min(k, end - WORD_BACK);
}

/** What a leaf needs from its document. */
export interface LeafHost {
  readonly cx: DomContext;
  /** The inline context for this leaf's parses (reference look-ups, missing labels). */
  inlineContext(leaf: InlineLeaf): InlineContext;
  /** Told when a parse met a named reference that needs the full entity table. */
  needsEntities(leaf: InlineLeaf): void;
}

/** Incrementally rendered inline content of a paragraph or heading. */
export class InlineLeaf {
  /** The whole content so far (kept while the leaf may still need a full re-render). */
  private source: string[] = [];
  /** Content offset where the tail starts. */
  private settled = 0;
  private tail = '';
  /** The character before the tail (flanking and autolinks look at it). */
  private before = '\n';
  private tailNodes: Node[] = [];
  /** Where settled nodes go: the container, or the leaf's current chunk. */
  private target: ParentNode;
  private chunks: HTMLElement[] = [];
  private chunkStart = 0;
  /** The first and (once complete) last DOM nodes this leaf put in its container. */
  private first: Node | null = null;
  private last: Node | null = null;
  private dirty = false;
  complete = false;
  /** A heading: its closing `#` sequence is dropped when its line ends. */
  heading = false;
  /** A paragraph: content that may start with a link reference definition is not settled until it closes. */
  mayHoldDefinitions = false;

  constructor(
    private readonly host: LeafHost,
    /** The element the content goes in (`p`, `h1`…, or an `li` for a tight list item). */
    public container: ParentNode,
  ) {
    this.target = container;
  }

  /** The content received so far. */
  content(): string {
    if (this.source.length > 1) this.source = [this.source.join('')];
    return this.source[0] ?? '';
  }

  append(text: string): void {
    if (text === '' || this.complete) return;
    this.source.push(text);
    this.tail += text;
    this.dirty = true;
  }

  /** Marks the content complete (its block closed) and settles everything. */
  finish(): void {
    if (this.complete) return;
    this.complete = true;
    this.dirty = true;
    if (this.heading) this.tail = stripClosingSequence(this.tail);
    this.update();
    this.last = this.target === this.container ? this.container.lastChild : (this.chunks.at(-1) ?? null);
    if (this.first === null) this.last = null;
  }

  /** Renders what arrived since the last update. */
  update(): void {
    if (!this.dirty) return;
    this.dirty = false;
    const { cx } = this.host;
    for (const node of this.tailNodes) {
      node.parentNode?.removeChild(node);
      cx.stats.nodesTouched += 1;
    }
    this.tailNodes = [];
    if (this.settled === 0) {
      // Leading whitespace is not content (the parsers already strip it from lines; this is the rest).
      const trimmed = this.tail.replace(/^\s+/, '');
      this.settled = this.tail.length - trimmed.length;
      this.tail = trimmed;
    }
    let end = this.tail.length;
    while (end > 0 && isSpace(this.tail.charCodeAt(end - 1))) end--;
    if (end === 0) return;
    const text = this.tail.slice(0, end);
    const lookups = unresolvedLookups;
    const result = parseInlines(text, this.before, this.host.inlineContext(this));
    if (unresolvedLookups !== lookups) this.host.needsEntities(this);
    cx.stats.charsParsed += text.length;
    const first = result.root.first;
    const settle = this.complete ? text.length : cutPoint(first, text, this.settlePoint(text, end, result.pending), result.refused);
    this.render(first, text, settle, result.closers);
  }

  /** Where the settled part may end: before anything pending and before the last word. */
  private settlePoint(text: string, textEnd: number, pending: number): number {
    let end = textEnd;
    if (this.mayHoldDefinitions && this.settled === 0 && holdsDefinition(this.tail)) return 0;
    if (this.heading) {
      // A trailing `#` run may be the closing sequence, dropped when the line ends.
      const closing = /(?:^|[ \t]+)#+[ \t]*$/.exec(this.tail);
      if (closing) end = Math.min(end, closing.index);
    }
    // The last word is decided by the character after it: whitespace settles it, unless the word ends
    // in a backslash (before a line break, that is a hard break).
    let word = end;
    if (end === this.tail.length || text.charCodeAt(end - 1) === 92) {
      const floor = Math.max(0, end - LONG_WORD);
      while (word > floor && !isSpace(text.charCodeAt(word - 1))) word--;
      if (end - word > WORD_BACK && !RE_AUTOLINK_MARK.test(text.slice(word, end))) word = lastWordEnd(text, word, end);
    }
    let point = Math.min(pending, word);
    if (point === pending && point < text.length) {
      // Back to the start of its word, so a URL or an email address is never split between renders.
      let k = point;
      while (k > 0 && point - k < WORD_BACK && !isSpace(text.charCodeAt(k - 1))) k--;
      if (k === 0 || isSpace(text.charCodeAt(k - 1))) point = k;
    }
    return Math.max(0, point);
  }

  /** Renders the parsed nodes: those before `settle` for good, the rest as the new tail. */
  private render(first: Inline | null, text: string, settle: number, closers = ''): void {
    const { cx } = this.host;
    let node = first;
    let runStart = node;
    while (node) {
      if ((node.next ? node.next.start : text.length) > settle) {
        if (!(node.type === 'text' && node.plain && settle > node.start)) break;
        // Split the text node at the point: its first part settles (with the nodes before it, so GFM email
        // autolinks are found in the same run of text), the rest stays in the tail.
        splitText(node, settle);
      }
      if (node.type === 'softbreak' && this.settled + node.start - this.chunkStart >= CHUNK_CHARS) {
        this.settleNodes(runStart, node.next);
        runStart = node.next;
        this.startChunk(this.settled + node.start + 1);
      } else if (node.type === 'text' && node.plain) {
        // A line with no soft break for LINE_CHUNK_CHARS is cut after a space instead.
        const space = node.literal.indexOf(' ', this.chunkStart + LINE_CHUNK_CHARS - this.settled - node.start);
        if (space !== -1) {
          const at = node.start + space + 1;
          const rest = space < node.literal.length - 1 ? splitText(node, at) : node.next;
          this.settleNodes(runStart, rest);
          runStart = rest;
          this.startChunk(this.settled + at);
        }
      }
      node = node.next;
    }
    this.settleNodes(runStart, node);
    const consumed = node ? node.start : text.length;
    if (node) {
      // The tail, placed after the settled nodes and removed on the next update. Constructs still open
      // are shown closed (`**bold` as bold): a display of what is coming, replaced when it comes.
      const fragment = cx.doc.createDocumentFragment();
      if (closers !== '' && !this.complete) {
        const before = consumed > 0 ? text.charAt(consumed - 1) : this.before;
        const shown = parseInlines(text.slice(consumed) + closers, before, this.host.inlineContext(this));
        cx.stats.charsParsed += text.length - consumed + closers.length;
        renderInlines(cx, shown.root.first, null, fragment);
      } else {
        renderInlines(cx, node, null, fragment);
      }
      this.tailNodes = [...fragment.childNodes];
      appendNode(cx, this.target as Node, fragment);
    }
    if (consumed > 0) {
      const low = this.tail.charCodeAt(consumed - 1);
      this.before = (low & 0xfc00) === 0xdc00 && consumed >= 2 ? this.tail.slice(consumed - 2, consumed) : this.tail.charAt(consumed - 1);
      this.tail = this.tail.slice(consumed);
      this.settled += consumed;
    }
  }

  /** Renders nodes `from`…`stop` (exclusive) into the target, for good. */
  private settleNodes(from: Inline | null, stop: Inline | null): void {
    if (from === stop) return;
    const { cx } = this.host;
    const fragment = cx.doc.createDocumentFragment();
    renderInlines(cx, from, stop, fragment);
    const head = fragment.firstChild;
    const previous = (this.target as Node).lastChild;
    // Consecutive settled text stays one Text node.
    if (this.first !== null && head && head.nodeType === 3 && previous && previous.nodeType === 3) {
      (previous as Text).appendData((head as Text).data);
      fragment.removeChild(head);
      cx.stats.nodesTouched += 1;
    }
    this.first ??= this.chunks[0] ?? fragment.firstChild;
    appendNode(cx, this.target as Node, fragment);
  }

  /** Starts a new block-level chunk; the first time, what this leaf rendered so far becomes chunk one. */
  private startChunk(at: number): void {
    const { cx } = this.host;
    if (this.chunks.length === 0) {
      const chunk = createElement(cx, 'div');
      if (this.first) {
        this.container.insertBefore(chunk, this.first);
        for (let n = chunk.nextSibling; n; ) {
          const next = n.nextSibling;
          chunk.appendChild(n);
          n = next;
        }
        cx.stats.nodesTouched += 1;
      } else {
        appendNode(cx, this.container as Node, chunk);
      }
      this.chunks.push(chunk);
      this.first = chunk;
    }
    const chunk = createElement(cx, 'div');
    appendNode(cx, this.container as Node, chunk);
    this.chunks.push(chunk);
    this.target = chunk;
    this.chunkStart = at;
  }

  /** The DOM nodes this leaf rendered, in order. */
  private nodes(): Node[] {
    const out: Node[] = [];
    for (let n = this.first ?? this.tailNodes[0] ?? null; n; n = n.nextSibling) {
      out.push(n);
      if (n === this.last) break;
    }
    return out;
  }

  /** Renders the whole content again in place (a definition it refers to, or the entity table, arrived). */
  rerender(content = this.content()): void {
    const { cx } = this.host;
    const nodes = this.nodes();
    const anchor = this.complete ? (nodes.at(-1)?.nextSibling ?? null) : null;
    for (const n of nodes) n.parentNode?.removeChild(n);
    cx.stats.nodesTouched += nodes.length;
    const container = this.container;
    const fragment = cx.doc.createDocumentFragment();
    this.container = this.target = fragment;
    this.first = this.last = null;
    this.tailNodes = [];
    this.chunks = [];
    this.chunkStart = this.settled = 0;
    this.before = '\n';
    this.source = [content];
    this.tail = content;
    this.dirty = true;
    const complete = this.complete;
    this.complete = false;
    if (complete) this.finish();
    else this.update();
    const lastNode = fragment.lastChild;
    container.insertBefore(fragment, anchor);
    this.container = container;
    this.target = this.chunks.at(-1) ?? container;
    this.last = complete && this.first ? lastNode : null;
  }

  /** Wraps the leaf's nodes into `element`, put where they were (a tight paragraph gains its `<p>`). */
  wrapIn(element: Element): void {
    const nodes = this.nodes();
    const anchor = this.complete ? (nodes.at(-1)?.nextSibling ?? null) : null;
    this.container.insertBefore(element, nodes[0] ?? anchor);
    for (const n of nodes) element.appendChild(n);
    this.host.cx.stats.nodesTouched += nodes.length + 1;
    if (this.target === this.container) this.target = element;
    this.container = element;
  }

  /** Moves the leaf's nodes to the end of `element` (a paragraph's `<p>` became a heading). */
  moveInto(element: Element): void {
    const nodes = this.nodes();
    for (const n of nodes) element.appendChild(n);
    this.host.cx.stats.nodesTouched += nodes.length;
    if (this.target === this.container) this.target = element;
    this.container = element;
  }

  /** Whether the leaf has rendered nothing (its content was all link reference definitions). */
  get empty(): boolean {
    return this.first === null;
  }

  /** Drops the kept source once no re-render can be needed. */
  release(): void {
    if (this.complete) this.source = [];
  }
}

/**
 * Where the settled part of a parse really ends for a settle point: at the point in plain text, else at
 * the start of the node the point falls in; never between a bracket and a GFM autolink it refused, since
 * the tail, parsed again without the bracket, would make the link; and, when moved back from the point,
 * not inside a run of characters an email address is made of, since emails are found in the text of one
 * render (so `+` settled alone would leave `_@a.b` to be linked without it).
 */
function cutPoint(first: Inline | null, text: string, point: number, refused: InlineResult['refused']): number {
  for (;;) {
    let cut = text.length;
    for (let node = first; node; node = node.next) {
      if ((node.next ? node.next.start : text.length) > point) {
        cut = node.type === 'text' && node.plain && point > node.start ? point : node.start;
        break;
      }
    }
    // Last bracket first: one pass finds the earliest bracket the cut must move to.
    let moved = cut;
    for (let i = refused.length - 1; i >= 0; i--) {
      const { bracket, autolink } = refused[i]!;
      if (bracket < moved && moved <= autolink) moved = bracket;
    }
    if (moved < point && isEmailish(text.charCodeAt(moved)) && moved > 0 && isEmailish(text.charCodeAt(moved - 1))) {
      const floor = moved - MAX_EMAIL;
      while (moved > 0 && moved > floor && isEmailish(text.charCodeAt(moved - 1))) moved--;
    }
    if (moved === cut) return cut;
    point = moved;
  }
}

/** Cuts a plain text node at source offset `at`; returns the new node holding the rest. */
function splitText(node: Inline, at: number): Inline {
  const rest = new Inline('text', at, node.literal.slice(at - node.start));
  rest.plain = true;
  node.literal = node.literal.slice(0, at - node.start);
  node.insertAfter(rest);
  return rest;
}

/** Drops an ATX heading's closing sequence (§4.2). */
function stripClosingSequence(s: string): string {
  return s.replace(/^[ \t]*#+[ \t]*$/, '').replace(/[ \t]+#+[ \t]*$/, '');
}

/** Whether text is, or may still become, a link reference definition (`[label]:` at its start). */
function holdsDefinition(text: string): boolean {
  if (text[0] !== '[') return false;
  const label = /^\[(?:[^\\[\]]|\\.){0,999}\]/s.exec(text);
  if (!label) return text.length <= 1001 && !/^\[(?:[^\\[\]]|\\.)*\[/s.test(text);
  return text.length === label[0].length || text[label[0].length] === ':';
}
