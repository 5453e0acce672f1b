/**
 * The inline parser: CommonMark 0.31.2 §6 (the algorithm of the reference implementation commonmark.js:
 * a delimiter stack for emphasis and a bracket stack for links) plus GFM strikethrough, producing a small
 * tree of {@link Inline} nodes that `inline-dom.ts` turns into DOM.
 *
 * What this file keeps is one algorithm: the scan that dispatches on each character, the delimiter and
 * bracket stacks it fills, and the passes that match them (emphasis, links, and the link destinations,
 * titles and reference definitions a `]` or a paragraph start reads with the same cursor). These share the
 * parser's position and stacks at every step, so splitting them would only pass that state around; like
 * commonmark.js, which keeps its inline parser in one file of about 1,000 lines. What recognises a
 * construct from the text alone lives beside it: autolinks in `autolink.ts`, math in `inline-math.ts`,
 * raw HTML and escapes in `syntax.ts`.
 *
 * Two additions make it streamable:
 * - **Reach.** An opener matches a closer, a backtick run a closing run, and a `<` a raw-HTML end only
 *   within {@link REACH} characters. Beyond that they stay text, in every rendering (so whole text and any
 *   chunking agree); it bounds how much text later characters can still change.
 * - **Pending.** After a parse, {@link InlineResult.pending} is the first position whose rendering more text
 *   could still change (an unmatched opener, an open bracket, an unclosed code span or tag within reach).
 *   Everything before it is final: the incremental renderer settles it and never parses it again.
 */
import { ESCAPABLE, HTML_TAG, PUNCTUATION, UNFINISHED_HTML_TAG, WHITESPACE_CHAR, decodeEntity, normalizeLabel, normalizeUri, unescapeString } from './syntax.js';
import { angleAutolink, unfinishedAutolink, urlAutolink, wwwAutolinkEnd } from './autolink.js';
import { backslashMath, dollarMath, type MathMatch } from './inline-math.js';

/** How far apart (in characters) an opener and its closer may be. */
export const REACH = 4096;
/** A link destination's parentheses nest at most this deep (cmark's limit; the spec allows one). */
const MAX_PAREN_DEPTH = 32;
/** While streaming, at most this many open emphasis runs are shown closed. */
const MAX_SHOWN_CLOSED = 4;

export type InlineType =
  | 'root' | 'text' | 'softbreak' | 'linebreak' | 'code' | 'html'
  | 'emph' | 'strong' | 'del' | 'link' | 'image' | 'math';

/** A node of the inline tree (a doubly linked list of children, as in commonmark.js). */
export class Inline {
  literal = '';
  destination = '';
  title = '';
  parent: Inline | null = null;
  first: Inline | null = null;
  last: Inline | null = null;
  prev: Inline | null = null;
  next: Inline | null = null;
  /** A text node whose literal is exactly the source from {@link Inline.start}: it may be split there. */
  plain = false;

  constructor(
    public type: InlineType,
    /** Subject offset where the node's source starts. */
    public start: number,
    literal = '',
  ) {
    this.literal = literal;
  }

  append(child: Inline): void {
    child.unlink();
    child.parent = this;
    if (this.last) {
      this.last.next = child;
      child.prev = this.last;
    } else {
      this.first = child;
    }
    this.last = child;
  }

  insertAfter(sibling: Inline): void {
    sibling.unlink();
    sibling.next = this.next;
    if (sibling.next) sibling.next.prev = sibling;
    sibling.prev = this;
    this.next = sibling;
    sibling.parent = this.parent;
    if (sibling.parent && !sibling.next) sibling.parent.last = sibling;
  }

  unlink(): void {
    if (this.prev) this.prev.next = this.next;
    else if (this.parent) this.parent.first = this.next;
    if (this.next) this.next.prev = this.prev;
    else if (this.parent) this.parent.last = this.prev;
    this.parent = this.next = this.prev = null;
  }
}

/** A link reference definition. */
export interface LinkReference {
  destination: string;
  title: string;
}

/** What the inline parser asks of the document. */
export interface InlineContext {
  /** The definition of a normalised label, if one is known. */
  reference(label: string): LinkReference | undefined;
  /** Told of each label looked up and not found, so a later definition can re-render the text. */
  missing(label: string): void;
  /** Whether `$…$`, `$$…$$`, `\(…\)` and `\[…\]` are math. */
  readonly math?: boolean;
}

/** The tree of one parse and how much of it is final. */
export interface InlineResult {
  root: Inline;
  /** The first subject offset whose rendering more text could change (`Infinity`: none). */
  pending: number;
  /**
   * What would close the constructs still open at the end (a code span's backticks, then the emphasis
   * and strikethrough openers innermost first): appended for display while the text streams, so
   * `**bold` shows bold before its closer arrives. Empty when nothing is open.
   */
  closers: string;
  /**
   * GFM autolinks refused because a bracket was open (no autolinks in link text), as pairs of the
   * bracket's and the refused autolink's offsets, by bracket. The refusal depends on the bracket even once
   * a later link has closed it (and so it is no longer pending): a re-parse that includes the autolink
   * must start at or before its bracket.
   */
  refused: Array<{ bracket: number; autolink: number }>;
}

interface Delimiter {
  cc: number;
  numdelims: number;
  origdelims: number;
  node: Inline;
  previous: Delimiter | null;
  next: Delimiter | null;
  canOpen: boolean;
  canClose: boolean;
  position: number;
}

interface Bracket {
  node: Inline;
  previous: Bracket | null;
  previousDelimiter: Delimiter | null;
  index: number;
  image: boolean;
  active: boolean;
  bracketAfter: boolean;
}

const C_NEWLINE = 10;
const C_BANG = 33;
const C_AMPERSAND = 38;
const C_OPEN_PAREN = 40;
const C_CLOSE_PAREN = 41;
const C_ASTERISK = 42;
const C_COLON = 58;
const C_W = 119;
const C_LESSTHAN = 60;
const C_GREATERTHAN = 62;
const C_QUOTE = 34;
const C_APOSTROPHE = 39;
const C_OPEN_BRACKET = 91;
const C_BACKSLASH = 92;
const C_CLOSE_BRACKET = 93;
const C_UNDERSCORE = 95;
const C_BACKTICK = 96;
const C_DOLLAR = 36;
const C_TILDE = 126;

const RE_MAIN = /[^\n`[\]\\!<&*_~w:$]+/y;
const RE_TICKS_HERE = /`+/y;
const RE_TICKS = /`+/g;
const RE_ENTITY_HERE = /&(?:#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[A-Za-z][A-Za-z0-9]{1,31});/y;
const RE_SPNL = / *(?:\n *)?/y;
const RE_UNICODE_WHITESPACE = /^\s$/;
const RE_FINAL_SPACE = / *$/;
const RE_INITIAL_SPACE = / */y;
const RE_SPACE_AT_END_OF_LINE = / *(?:\n|$)/y;
const RE_LINK_LABEL = /\[(?:[^\\[\]]|\\.){0,1000}\]/sy;
const RE_LINK_DESTINATION_BRACES = /<(?:[^<>\n\\\x00]|\\.)*>/y;
const RE_LINK_TITLE = /"(?:\\[!-/:-@[-`{-~]|\\[^\\]|[^\\"\x00])*"|'(?:\\[!-/:-@[-`{-~]|\\[^\\]|[^\\'\x00])*'|\((?:\\[!-/:-@[-`{-~]|\\[^\\]|[^\\()\x00])*\)/y;

const text = (s: string, start: number, plain = false): Inline => {
  const node = new Inline('text', start, s);
  node.plain = plain;
  return node;
};

/** Parses inline content; one instance per parse (it holds the subject and the stacks). */
class InlineParser {
  pos = 0;
  delimiters: Delimiter | null = null;
  brackets: Bracket | null = null;
  pending = Infinity;
  /** Backtick run lengths seen ahead (start of the last run of each length), for linear code-span search. */
  private ticks: number[] = [];
  private ticksScanned = false;
  /** The first backtick run still waiting for its closer (within reach). */
  private openTicks: { position: number; length: number } | null = null;
  /** Unmatched emphasis openers within reach, last first, as left after the final emphasis pass. */
  private openers: Array<{ cc: number; count: number; position: number }> = [];
  /** Math closers (`$$`, `\\)`, `\\]`) known to be absent from the rest of the subject. */
  private noCloser = new Set<string>();
  /** The parentheses of the subject, computed on the first link destination. */
  private parens: Parentheses | undefined;
  /**
   * Set by a link destination or title that failed only for want of more text (the subject ended inside
   * it): such a `](` may still become a link. One that failed on text already here never will, so its
   * opener is not pending and a stream does not parse it again with every delta.
   */
  private undecided = false;
  /** For each bracket that refused a GFM autolink, the offset of the last one it refused. */
  private refusals = new Map<number, number>();

  constructor(
    readonly subject: string,
    /** The character before the subject (for flanking); `\n` at a block start. */
    readonly before: string,
    readonly ctx: InlineContext,
  ) {}

  /** Matches a sticky regex at the current position within `limit` characters; advances on success. */
  private match(re: RegExp, limit = this.subject.length - this.pos): string | null {
    const s = limit < this.subject.length - this.pos ? this.subject.slice(0, this.pos + limit) : this.subject;
    re.lastIndex = this.pos;
    const m = re.exec(s);
    if (m === null) return null;
    this.pos += m[0].length;
    return m[0];
  }

  /** Whether a sticky regex matches at the current position (without advancing). */
  private test(re: RegExp): boolean {
    re.lastIndex = this.pos;
    return re.test(this.subject);
  }

  private peek(): number {
    return this.pos < this.subject.length ? this.subject.charCodeAt(this.pos) : -1;
  }

  /** Marks position `at` as pending when text up to REACH after it is not all here yet. */
  private pend(at: number): void {
    if (this.subject.length - at <= REACH && at < this.pending) this.pending = at;
  }

  parse(): InlineResult {
    const root = new Inline('root', 0);
    const n = this.subject.length;
    while (this.pos < n) this.parseInline(root);
    // Unmatched openers and open brackets still within reach may yet be closed.
    for (let b = this.brackets; b; b = b.previous) if (b.active) this.pend(b.node.start);
    this.processEmphasis(null, true);
    const ticks = this.openTicks;
    let closers = ticks ? '`'.repeat(ticks.length) : '';
    // Innermost first (the list is last first); only the few innermost, for a cheap and shallow display.
    let shown = 0;
    for (const o of this.openers) {
      if (ticks && o.position > ticks.position) continue;
      if (++shown > MAX_SHOWN_CLOSED) break;
      closers += String.fromCharCode(o.cc).repeat(o.count);
    }
    const refused = [...this.refusals].map(([bracket, autolink]) => ({ bracket, autolink })).sort((a, b) => a.bracket - b.bracket);
    return { root, pending: this.pending, closers, refused };
  }

  private parseInline(block: Inline): void {
    const c = this.subject.charCodeAt(this.pos);
    let res = false;
    switch (c) {
      case C_NEWLINE: res = this.parseNewline(block); break;
      case C_BACKSLASH: res = this.parseBackslash(block); break;
      case C_BACKTICK: res = this.parseBackticks(block); break;
      case C_ASTERISK: case C_UNDERSCORE: case C_TILDE: res = this.handleDelim(c, block); break;
      case C_OPEN_BRACKET: res = this.parseOpenBracket(block); break;
      case C_BANG: res = this.parseBang(block); break;
      case C_CLOSE_BRACKET: res = this.parseCloseBracket(block); break;
      case C_LESSTHAN: res = this.parseAutolink(block) || this.parseHtmlTag(block); break;
      case C_AMPERSAND: res = this.parseEntity(block); break;
      case C_W: res = this.parseWwwAutolink(block); break;
      case C_COLON: res = this.parseUrlAutolink(block); break;
      case C_DOLLAR: res = this.ctx.math === true && this.parseDollar(block); break;
      default: res = this.parseString(block); break;
    }
    if (!res) {
      // A `<` that the text after it already rules out as an autolink or raw HTML is text for good.
      if (c === C_LESSTHAN && this.subject.length - this.pos <= REACH && (unfinishedAutolink(this.subject, this.pos) || this.test(UNFINISHED_HTML_TAG))) {
        this.pend(this.pos);
      }
      this.appendPlain(block, this.subject.charAt(this.pos));
      this.pos += 1;
    }
  }

  /** Appends source text at the current position, extending the previous plain text node when adjacent. */
  private appendPlain(block: Inline, s: string): void {
    const last = block.last;
    if (last && last.plain && last.start + last.literal.length === this.pos) last.literal += s;
    else block.append(text(s, this.pos, true));
  }

  /**
   * Whether a link or image opener is active (within reach of `at`): GFM autolinks are not made inside
   * link text. The refusal of the autolink at `at` is remembered with the opener it depends on.
   */
  private inBracket(at: number): boolean {
    let b = this.brackets;
    while (b && !b.active) b = b.previous;
    if (!b || at - b.node.start > REACH) return false;
    this.refusals.set(b.node.start, at);
    return true;
  }

  /** GFM extended www autolink: `www.` and a valid domain, at a line start or after space, `*`, `_`, `~`, `(`. */
  private parseWwwAutolink(block: Inline): boolean {
    const start = this.pos;
    const end = wwwAutolinkEnd(this.subject, start, start === 0 ? this.before : this.subject.charAt(start - 1));
    if (end === -1 || this.inBracket(start)) return false;
    const literal = this.subject.slice(start, end);
    const node = new Inline('link', start);
    node.destination = normalizeUri(`http://${literal}`);
    node.append(text(literal, start));
    block.append(node);
    this.pos = end;
    return true;
  }

  /** GFM extended URL autolink: `http://`, `https://` or `ftp://` and a domain, found at the `:`. */
  private parseUrlAutolink(block: Inline): boolean {
    const colon = this.pos;
    // The scheme letters were read as text just before the colon.
    const last = block.last;
    if (!last || !last.plain || last.start + last.literal.length !== colon) return false;
    const url = urlAutolink(this.subject, colon, last.start);
    if (url === null || this.inBracket(url.start)) return false;
    last.literal = last.literal.slice(0, url.start - last.start);
    if (last.literal === '') last.unlink();
    const literal = this.subject.slice(url.start, url.end);
    const node = new Inline('link', url.start);
    node.destination = normalizeUri(literal);
    node.append(text(literal, url.start));
    block.append(node);
    this.pos = url.end;
    return true;
  }

  private parseNewline(block: Inline): boolean {
    const start = this.pos;
    this.pos += 1;
    const last = block.last;
    if (last && last.type === 'text' && last.literal.endsWith(' ')) {
      const hard = last.literal.endsWith('  ');
      last.literal = last.literal.replace(RE_FINAL_SPACE, '');
      last.plain = false;
      block.append(new Inline(hard ? 'linebreak' : 'softbreak', start));
    } else {
      block.append(new Inline('softbreak', start));
    }
    this.match(RE_INITIAL_SPACE);
    return true;
  }

  private parseBackslash(block: Inline): boolean {
    const start = this.pos;
    this.pos += 1;
    const next = this.subject.charAt(this.pos);
    if (this.ctx.math === true && (next === '(' || next === '[') && this.appendMath(block, start, backslashMath(this.subject, start, REACH, this.noCloser))) return true;
    if (next === '\n') {
      this.pos += 1;
      block.append(new Inline('linebreak', start));
    } else if (next !== '' && ESCAPABLE.test(next)) {
      block.append(text(next, start));
      this.pos += 1;
    } else {
      block.append(text('\\', start, true));
    }
    return true;
  }

  private parseDollar(block: Inline): boolean {
    const start = this.pos;
    if (this.appendMath(block, start, dollarMath(this.subject, start, REACH, this.noCloser))) return true;
    if (this.subject.charCodeAt(start + 1) !== C_DOLLAR) return false;
    this.appendPlain(block, '$$');
    this.pos += 2;
    return true;
  }

  /** Appends the formula found at `start`, if any; marks it pending when more text could change it. */
  private appendMath(block: Inline, start: number, math: MathMatch): boolean {
    if (math.undecided) this.pend(start);
    if (math.end === -1) return false;
    // A formula's `destination` is its source with the delimiters; `title` is set for display math.
    const node = new Inline('math', start, math.tex);
    if (math.display) node.title = 'display';
    this.pos = math.end;
    node.destination = this.subject.slice(start, math.end);
    block.append(node);
    return true;
  }

  private parseBackticks(block: Inline): boolean {
    const start = this.pos;
    const ticks = this.match(RE_TICKS_HERE)!;
    const afterOpen = this.pos;
    const closer = this.findClosingTicks(ticks.length, start + REACH);
    if (closer === -1) {
      this.pend(start);
      if (!this.openTicks && this.subject.length - start <= REACH) this.openTicks = { position: start, length: ticks.length };
      block.append(text(ticks, start, true));
      return true;
    }
    let contents = this.subject.slice(afterOpen, closer).replace(/\n/g, ' ');
    // One space is stripped from each side when both are there and the span is not all spaces (§6.1).
    if (contents.length > 2 && contents[0] === ' ' && contents[contents.length - 1] === ' ' && /[^ ]/.test(contents)) {
      contents = contents.slice(1, -1);
    }
    block.append(new Inline('code', start, contents));
    this.pos = closer + ticks.length;
    return true;
  }

  /** Start of the first run of exactly `length` backticks after the position, before `limit`; -1 if none. */
  private findClosingTicks(length: number, limit: number): number {
    if (this.ticksScanned && (this.ticks[length] ?? -1) < this.pos) return -1;
    RE_TICKS.lastIndex = this.pos;
    for (let m = RE_TICKS.exec(this.subject); m; m = RE_TICKS.exec(this.subject)) {
      this.ticks[m[0].length] = m.index;
      if (m.index + m[0].length > limit) return -1;
      if (m[0].length === length) return m.index;
    }
    this.ticksScanned = true;
    return -1;
  }

  private parseAutolink(block: Inline): boolean {
    const start = this.pos;
    const autolink = angleAutolink(this.subject, start, start + REACH);
    if (autolink === null) return false;
    const node = new Inline('link', start);
    node.destination = normalizeUri(autolink.email ? `mailto:${autolink.text}` : autolink.text);
    node.append(text(autolink.text, start + 1));
    block.append(node);
    this.pos = autolink.end;
    return true;
  }

  private parseHtmlTag(block: Inline): boolean {
    const start = this.pos;
    const m = this.match(HTML_TAG, REACH);
    if (m === null) return false;
    block.append(new Inline('html', start, m));
    return true;
  }

  private scanDelims(cc: number): { numdelims: number; canOpen: boolean; canClose: boolean } {
    const start = this.pos;
    let numdelims = 0;
    while (this.peek() === cc) {
      numdelims++;
      this.pos++;
    }
    const afterCode = this.subject.codePointAt(this.pos);
    const after = afterCode === undefined ? '\n' : String.fromCodePoint(afterCode);
    // Whole code points on both sides: an emoji (category S) is punctuation for flanking.
    const low = start >= 1 ? this.subject.charCodeAt(start - 1) : 0;
    const beforeChar =
      start === 0
        ? this.before
        : (low & 0xfc00) === 0xdc00 && start >= 2
          ? this.subject.slice(start - 2, start)
          : this.subject.charAt(start - 1);
    const afterWhite = RE_UNICODE_WHITESPACE.test(after);
    const afterPunct = PUNCTUATION.test(after);
    const beforeWhite = RE_UNICODE_WHITESPACE.test(beforeChar);
    const beforePunct = PUNCTUATION.test(beforeChar);
    const left = !afterWhite && (!afterPunct || beforeWhite || beforePunct);
    const right = !beforeWhite && (!beforePunct || afterWhite || afterPunct);
    this.pos = start;
    if (cc === C_UNDERSCORE) {
      return { numdelims, canOpen: left && (!right || beforePunct), canClose: right && (!left || afterPunct) };
    }
    return { numdelims, canOpen: left, canClose: right };
  }

  private handleDelim(cc: number, block: Inline): boolean {
    const res = this.scanDelims(cc);
    const start = this.pos;
    this.pos += res.numdelims;
    // Delimiter runs are their own nodes (emphasis takes characters off them): never merged into.
    const node = text(this.subject.slice(start, this.pos), start);
    block.append(node);
    // GFM strikethrough: runs of one or two tildes only.
    if (cc === C_TILDE && res.numdelims > 2) return true;
    if (res.canOpen || res.canClose) {
      const d: Delimiter = {
        cc, numdelims: res.numdelims, origdelims: res.numdelims, node, previous: this.delimiters, next: null,
        canOpen: res.canOpen, canClose: res.canClose, position: start,
      };
      if (d.previous) d.previous.next = d;
      this.delimiters = d;
    }
    return true;
  }

  private removeDelimiter(d: Delimiter): void {
    if (d.previous) d.previous.next = d.next;
    if (d.next === null) this.delimiters = d.previous;
    else d.next.previous = d.previous;
  }

  /**
   * Matches closers to openers above `bottom` (commonmark.js's process_emphasis, with the reach limit
   * and GFM's `~`). At the end of a parse (`final`), openers left unmatched are reported as pending.
   */
  private processEmphasis(bottom: Delimiter | null, final = false): void {
    const openersBottom: (Delimiter | null)[] = new Array(15).fill(bottom);
    let closer = this.delimiters;
    while (closer !== null && closer.previous !== bottom) closer = closer.previous;
    while (closer !== null) {
      if (!closer.canClose) {
        closer = closer.next;
        continue;
      }
      const cc = closer.cc;
      const index =
        cc === C_TILDE ? 14 : (cc === C_UNDERSCORE ? 2 : 8) + (closer.canOpen ? 3 : 0) + (closer.origdelims % 3);
      let opener = closer.previous;
      let found = false;
      while (opener !== null && opener !== bottom && opener !== openersBottom[index]) {
        if (closer.position - opener.position > REACH) {
          opener = null;
          break;
        }
        if (cc === C_TILDE) {
          if (opener.cc === cc && opener.canOpen && opener.origdelims === closer.origdelims) {
            found = true;
            break;
          }
        } else {
          const oddMatch =
            (closer.canOpen || opener.canClose) &&
            closer.origdelims % 3 !== 0 &&
            (opener.origdelims + closer.origdelims) % 3 === 0;
          if (opener.cc === cc && opener.canOpen && !oddMatch) {
            found = true;
            break;
          }
        }
        opener = opener.previous;
      }
      const oldCloser = closer;
      if (!found || !opener) {
        closer = closer.next;
        openersBottom[index] = oldCloser.previous;
        if (!oldCloser.canOpen) this.removeDelimiter(oldCloser);
        continue;
      }
      const use = cc === C_TILDE ? closer.numdelims : closer.numdelims >= 2 && opener.numdelims >= 2 ? 2 : 1;
      const openerNode = opener.node;
      const closerNode = closer.node;
      opener.numdelims -= use;
      closer.numdelims -= use;
      openerNode.literal = openerNode.literal.slice(0, openerNode.literal.length - use);
      closerNode.literal = closerNode.literal.slice(0, closerNode.literal.length - use);
      const wrapper = new Inline(cc === C_TILDE ? 'del' : use === 1 ? 'emph' : 'strong', openerNode.start + openerNode.literal.length);
      for (let tmp = openerNode.next; tmp && tmp !== closerNode; ) {
        const next = tmp.next;
        wrapper.append(tmp);
        tmp = next;
      }
      openerNode.insertAfter(wrapper);
      // Remove the delimiters between opener and closer.
      if (opener.next !== closer) {
        opener.next = closer;
        closer.previous = opener;
      }
      if (opener.numdelims === 0) {
        openerNode.unlink();
        this.removeDelimiter(opener);
      }
      if (closer.numdelims === 0) {
        closerNode.unlink();
        const next = closer.next;
        this.removeDelimiter(closer);
        closer = next;
      }
    }
    while (this.delimiters !== null && this.delimiters !== bottom) {
      const d = this.delimiters;
      if (final && d.canOpen && d.numdelims > 0) {
        this.pend(d.position);
        if (this.subject.length - d.position <= REACH) this.openers.push({ cc: d.cc, count: d.numdelims, position: d.position });
      }
      this.removeDelimiter(d);
    }
  }

  private parseLinkTitle(): string | null {
    const title = this.match(RE_LINK_TITLE, REACH);
    if (title === null) this.undecided ||= this.endsInside(this.pos, this.subject.charCodeAt(this.pos));
    return title === null ? null : unescapeString(title.slice(1, -1));
  }

  /**
   * Whether the subject ends inside the title or braced destination opened at `start` by `open` (`"`,
   * `'`, `(` or `<`), within reach: whether more text could still close it. False when text already here
   * refuses it (a nested `(` or `<`, a line end in `<…>`).
   */
  private endsInside(start: number, open: number): boolean {
    const s = this.subject;
    const close =
      open === C_OPEN_PAREN ? C_CLOSE_PAREN : open === C_LESSTHAN ? C_GREATERTHAN : open === C_QUOTE || open === C_APOSTROPHE ? open : -1;
    if (close === -1 || s.length - start > REACH) return false;
    for (let i = start + 1; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c === C_BACKSLASH) i++;
      else if (c === close || c === 0 || (c === open && open !== close) || (open === C_LESSTHAN && c === C_NEWLINE)) return false;
    }
    return true;
  }

  private parseLinkDestination(): string | null {
    const braced = this.match(RE_LINK_DESTINATION_BRACES, REACH);
    if (braced !== null) return normalizeUri(unescapeString(braced.slice(1, -1)));
    if (this.peek() === C_LESSTHAN) {
      this.undecided ||= this.endsInside(this.pos, C_LESSTHAN);
      return null;
    }
    const save = this.pos;
    const limit = Math.min(this.subject.length, save + REACH);
    // A balanced group of parentheses is skipped in one step (its close was found once for the whole
    // subject), so scans from many `](` over the same text stay linear.
    const parens = (this.parens ??= matchParentheses(this.subject));
    // Parentheses not closed (yet): the destination fails, unless the subject ends before anything
    // refuses it (a space, nesting too deep) and more text closes them.
    let open = 0;
    let c = -1;
    while (this.pos < limit) {
      c = this.subject.charCodeAt(this.pos);
      if (c === C_BACKSLASH && ESCAPABLE.test(this.subject.charAt(this.pos + 1))) {
        this.pos += 2;
      } else if (c === C_OPEN_PAREN) {
        const end = parens.close[this.pos]!;
        if ((end < 0 ? ++open : open + parens.depth[this.pos]!) > MAX_PAREN_DEPTH) return null;
        this.pos = end < 0 ? this.pos + 1 : end + 1;
      } else if (c === C_CLOSE_PAREN || c <= 0x20 || c === 0x7f) {
        break;
      } else {
        this.pos += 1;
      }
    }
    if (this.pos >= limit) {
      this.undecided ||= this.subject.length < save + REACH;
      return null;
    }
    if (open > 0 || (this.pos === save && c !== C_CLOSE_PAREN)) return null;
    return normalizeUri(unescapeString(this.subject.slice(save, this.pos)));
  }

  private parseLinkLabel(): number {
    const m = this.match(RE_LINK_LABEL);
    return m === null || m.length > 1001 ? 0 : m.length;
  }

  private addBracket(node: Inline, index: number, image: boolean): void {
    if (this.brackets) this.brackets.bracketAfter = true;
    this.brackets = { node, previous: this.brackets, previousDelimiter: this.delimiters, index, image, active: true, bracketAfter: false };
  }

  private parseOpenBracket(block: Inline): boolean {
    const start = this.pos;
    this.pos += 1;
    const node = text('[', start);
    block.append(node);
    this.addBracket(node, start, false);
    return true;
  }

  private parseBang(block: Inline): boolean {
    const start = this.pos;
    this.pos += 1;
    if (this.peek() === C_OPEN_BRACKET) {
      this.pos += 1;
      const node = text('![', start);
      block.append(node);
      this.addBracket(node, start + 1, true);
    } else {
      block.append(text('!', start, true));
    }
    return true;
  }

  private parseCloseBracket(block: Inline): boolean {
    const bracketPos = this.pos;
    this.pos += 1;
    const startpos = this.pos;
    let opener = this.brackets;
    if (opener === null) {
      block.append(text(']', bracketPos, true));
      return true;
    }
    if (!opener.active || bracketPos - opener.node.start > REACH) {
      block.append(text(']', bracketPos, true));
      this.brackets = opener.previous;
      return true;
    }
    const image = opener.image;
    const savepos = this.pos;
    let matched = false;
    let dest: string | null = null;
    let title: string | null = null;
    const next = this.peek();
    if (next === C_OPEN_PAREN) {
      this.pos++;
      this.undecided = false;
      this.match(RE_SPNL);
      dest = this.parseLinkDestination();
      if (dest !== null) {
        this.match(RE_SPNL);
        if (WHITESPACE_CHAR.test(this.subject.charAt(this.pos - 1))) title = this.parseLinkTitle();
        this.match(RE_SPNL);
        if (this.pos === this.subject.length) {
          this.undecided = true;
        } else if (this.peek() === C_CLOSE_PAREN && this.pos - opener.node.start <= REACH) {
          this.pos += 1;
          matched = true;
        }
      }
      // An inline link may still be being written: more text can complete it.
      if (!matched) {
        if (this.undecided) this.pend(opener.node.start);
        this.pos = savepos;
      }
    }
    if (!matched) {
      const beforeLabel = this.pos;
      const n = this.parseLinkLabel();
      let label: string | undefined;
      if (n > 2) label = this.subject.slice(beforeLabel, beforeLabel + n);
      else if (!opener.bracketAfter) label = this.subject.slice(opener.index, startpos);
      if (n === 0) this.pos = savepos;
      if (label) {
        const key = normalizeLabel(label);
        const ref = this.ctx.reference(key);
        if (ref) {
          dest = ref.destination;
          title = ref.title;
          matched = true;
        } else if (key !== '') {
          this.ctx.missing(key);
        }
      }
      // `[text]` at the very end, or before a `[label` not closed yet, may still become a link.
      if (!matched && (next === -1 || (next === C_OPEN_BRACKET && n === 0))) this.pend(opener.node.start);
    }
    if (!matched) {
      // A `]` after a construct still waiting for its end (a `<`, a backtick run) may yet be swallowed
      // by it, and then this bracket stays open (no autolinks, a later `]` may close it).
      if (this.pending < bracketPos) this.pend(opener.node.start);
      this.brackets = opener.previous;
      this.pos = startpos;
      block.append(text(']', bracketPos, true));
      return true;
    }
    const node = new Inline(image ? 'image' : 'link', opener.node.start);
    node.destination = dest ?? '';
    node.title = title ?? '';
    for (let tmp = opener.node.next; tmp; ) {
      const next = tmp.next;
      node.append(tmp);
      tmp = next;
    }
    block.append(node);
    this.processEmphasis(opener.previousDelimiter);
    this.brackets = opener.previous;
    opener.node.unlink();
    if (!image) for (opener = this.brackets; opener; opener = opener.previous) if (!opener.image) opener.active = false;
    return true;
  }

  private parseEntity(block: Inline): boolean {
    const start = this.pos;
    const m = this.match(RE_ENTITY_HERE);
    if (m === null) return false;
    const value = decodeEntity(m);
    block.append(text(value ?? m, start, value === null || value === undefined));
    return true;
  }

  private parseString(block: Inline): boolean {
    RE_MAIN.lastIndex = this.pos;
    const m = RE_MAIN.exec(this.subject);
    if (m === null) return false;
    this.appendPlain(block, m[0]);
    this.pos += m[0].length;
    return true;
  }

  /** Parses a link reference definition at the start of `this.subject`; returns its length (0: none). */
  parseReference(define: (label: string, ref: LinkReference) => void): number {
    const startpos = this.pos;
    const n = this.parseLinkLabel();
    if (n === 0) return 0;
    const rawLabel = this.subject.slice(startpos, startpos + n);
    if (this.peek() !== C_COLON) {
      this.pos = startpos;
      return 0;
    }
    this.pos++;
    this.match(RE_SPNL);
    const dest = this.parseLinkDestination();
    if (dest === null) {
      this.pos = startpos;
      return 0;
    }
    const beforeTitle = this.pos;
    this.match(RE_SPNL);
    let title: string | null = null;
    if (this.pos !== beforeTitle) title = this.parseLinkTitle();
    if (title === null) this.pos = beforeTitle;
    let atLineEnd = true;
    if (this.match(RE_SPACE_AT_END_OF_LINE) === null) {
      if (title === null) {
        atLineEnd = false;
      } else {
        title = null;
        this.pos = beforeTitle;
        atLineEnd = this.match(RE_SPACE_AT_END_OF_LINE) !== null;
      }
    }
    if (!atLineEnd) {
      this.pos = startpos;
      return 0;
    }
    const label = normalizeLabel(rawLabel);
    if (label === '') {
      this.pos = startpos;
      return 0;
    }
    define(label, { destination: dest, title: title ?? '' });
    return this.pos - startpos;
  }
}

/**
 * Parses `subject` into an inline tree. `before` is the character before it (`\n` at the start of a
 * block): emphasis flanking looks at it.
 */
export function parseInlines(subject: string, before: string, ctx: InlineContext): InlineResult {
  return new InlineParser(subject, before, ctx).parse();
}

/**
 * Reads link reference definitions from the start of a paragraph's content (§4.7), calling `define` for
 * each; returns how many characters they took.
 */
export function parseReferences(content: string, define: (label: string, ref: LinkReference) => void): number {
  const parser = new InlineParser(content, '\n', { reference: () => undefined, missing: () => {} });
  while (content.charCodeAt(parser.pos) === C_OPEN_BRACKET) {
    if (parser.parseReference(define) === 0) break;
  }
  return parser.pos;
}

/**
 * Reads the link reference definitions at the start of a paragraph still receiving lines, calling `define`
 * for those no later line can change; returns how many characters they took. The last one read stays
 * undecided while nothing follows it but blank text or the start of a title (`"`, `'`, `(`), which may
 * close on a later line and become its title.
 */
export function parseDecidedReferences(content: string, define: (label: string, ref: LinkReference) => void): number {
  const parser = new InlineParser(content, '\n', { reference: () => undefined, missing: () => {} });
  const read: Array<{ start: number; label: string; ref: LinkReference }> = [];
  while (content.charCodeAt(parser.pos) === C_OPEN_BRACKET) {
    const start = parser.pos;
    if (parser.parseReference((label, ref) => read.push({ start, label, ref })) === 0) break;
  }
  RE_NEXT_NON_SPACE.lastIndex = parser.pos;
  const next = RE_NEXT_NON_SPACE.exec(content);
  const lastDecided = next !== null && !'"\'('.includes(next[0]);
  const decided = lastDecided ? read : read.slice(0, -1);
  for (const { label, ref } of decided) define(label, ref);
  return lastDecided ? parser.pos : (read.at(-1)?.start ?? 0);
}
const RE_NEXT_NON_SPACE = /\S/g;

/** What a link destination's parentheses balance against, found once per subject. */
interface Parentheses {
  /** For each `(`, the index of the `)` that closes it within the same run of non-space characters (-1: none). */
  close: Int32Array;
  /** For each closed `(`, how deep the parentheses of its group nest (`(a)`: 1, `((a))`: 2). */
  depth: Int32Array;
}

/** The parentheses of `s`, backslash escapes skipped. */
function matchParentheses(s: string): Parentheses {
  const close = new Int32Array(s.length).fill(-1);
  const depth = new Int32Array(s.length);
  const open: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === C_BACKSLASH && ESCAPABLE.test(s.charAt(i + 1))) i++;
    else if (c === C_OPEN_PAREN) {
      open.push(i);
      depth[i] = 1;
    } else if (c === C_CLOSE_PAREN) {
      const o = open.pop();
      if (o === undefined) continue;
      close[o] = i;
      const outer = open.at(-1);
      if (outer !== undefined) depth[outer] = Math.max(depth[outer]!, depth[o]! + 1);
    } else if (c <= 0x20 || c === 0x7f) open.length = 0;
  }
  return { close, depth };
}
