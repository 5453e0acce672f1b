/**
 * The block parser: CommonMark 0.31.2's line-by-line block algorithm (commonmark.js's blocks.js: open
 * containers are matched against each line, then new block starts are tried, then the rest of the line
 * goes to the open leaf), plus GFM tables and task list items, building the DOM as blocks open.
 *
 * Streaming: a line is applied as soon as its block structure is decided ({@link lineDecided}), not
 * when it ends, and the rest of it streams into the open leaf. Blocks that close are final; what changes
 * earlier output is patched where it lands: a setext underline re-tags its paragraph, a delimiter row turns
 * the paragraph's last line into a table header, a blank line between items loosens a list (its items'
 * text gains `<p>`), and a link definition re-renders the text that referred to it.
 */
import { CodeBlockView } from './code-block.js';
import { appendNode, appendText, createElement, setAttribute, type DomContext } from './inline-dom.js';
import { parseDecidedReferences, parseReferences, type InlineContext, type LinkReference } from './inlines.js';
import { InlineLeaf, type LeafHost } from './leaf.js';
import { OPEN_TAG, CLOSE_TAG, unescapeString } from './syntax.js';
import { TableView, alignments, isDelimiterRow, splitRow, type Rerenderable } from './table.js';
import { onEntitiesLoaded } from './entities.js';

type BlockType =
  | 'document' | 'block_quote' | 'list' | 'item' | 'paragraph' | 'heading'
  | 'thematic_break' | 'code_block' | 'html_block' | 'table';

interface ListData {
  type: 'bullet' | 'ordered';
  tight: boolean;
  bulletChar: string;
  start: number;
  delimiter: string;
  padding: number;
  markerOffset: number;
}

/** Block quotes, lists and items nest at most this deep (deeper markers are text): bounded DOM depth. */
export const MAX_NESTING = 32;
/**
 * The answer's top-level blocks go in groups of this many once there are more: a container with hundreds
 * of children is laid out and painted child by child on every change to its last one, a handful of groups
 * (earlier ones with `content-visibility: auto`) is not. The last group is repainted whole on each update,
 * so it is kept small: blocks can be tall (paragraphs, display formulas, code).
 */
export const GROUP_SIZE = 6;
/** A list's items go in groups of this many: items are usually a line each. */
export const LIST_GROUP_SIZE = 32;
const CODE_INDENT = 4;

const RE_HTML_BLOCK_OPEN = [
  /./,
  /^<(?:script|pre|textarea|style)(?:\s|>|$)/i,
  /^<!--/,
  /^<[?]/,
  /^<![A-Za-z]/,
  /^<!\[CDATA\[/,
  /^<[/]?(?:address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h[123456]|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol|optgroup|option|p|param|section|search|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul)(?:\s|[/]?[>]|$)/i,
  new RegExp(`^(?:${OPEN_TAG}|${CLOSE_TAG})\\s*$`, 'i'),
];
const RE_HTML_BLOCK_CLOSE = [/./, /<\/(?:script|pre|textarea|style)>/i, /-->/, /\?>/, />/, /\]\]>/];
const RE_THEMATIC_BREAK = /^(?:\*[ \t]*){3,}$|^(?:_[ \t]*){3,}$|^(?:-[ \t]*){3,}$/;
const RE_MAYBE_SPECIAL = /^[#`~*+_=<>0-9|:-]/;
const RE_NON_SPACE = /[^ \t\f\v\r\n]/;
const RE_BULLET_LIST_MARKER = /^[*+-]/;
const RE_ORDERED_LIST_MARKER = /^(\d{1,9})([.)])/;
const RE_ATX_HEADING_MARKER = /^#{1,6}(?:[ \t]+|$)/;
const RE_CODE_FENCE = /^`{3,}(?!.*`)|^~{3,}/;
const RE_CLOSING_CODE_FENCE = /^(?:`{3,}|~{3,})(?=[ \t]*$)/;
const RE_SETEXT_HEADING_LINE = /^(?:=+|-+)[ \t]*$/;
const RE_TASK_MARKER = /^\[[ xX]\][ \t]/;

/**
 * Whether a partial line's block structure is decided: no more text on the line can change how it
 * opens or closes blocks. A character outside the block markers' alphabet decides it; a code fence
 * opener (its info string may not contain a backtick), a line starting with `<` (HTML blocks) and a task
 * marker not yet followed by its space wait for more.
 */
export function lineDecided(line: string): boolean {
  const lead = /^(?:[ \t]*(?:>|[-+*](?=[ \t]|$)|\d{1,9}[.)](?=[ \t]|$)))*[ \t]*(?:\[[ xX]\][ \t]+)?/.exec(line)![0].length;
  const rest = line.slice(lead);
  if (rest.startsWith('```') || rest.startsWith('~~~') || rest.startsWith('<')) return false;
  if (/^\[(?:[ xX]\]?)?$/.test(rest)) return false;
  return /[^ \t>*+\-=_#`~|:.)0-9]/.test(rest);
}

const isSpaceOrTab = (c: string | undefined): boolean => c === ' ' || c === '\t';

class Block {
  parent: Block | null = null;
  first: Block | null = null;
  last: Block | null = null;
  prev: Block | null = null;
  next: Block | null = null;
  open = true;
  endLine = 0;
  /** The block's own element (none for the document's root target or a tight paragraph). */
  el: Element | null = null;
  listData: ListData | null = null;
  level = 0;
  fenced = false;
  fenceChar = '';
  fenceLength = 0;
  fenceOffset = 0;
  infoPending = false;
  htmlBlockType = 0;
  leaf: InlineLeaf | null = null;
  code: CodeBlockView | null = null;
  table: TableView | null = null;
  /** Indented code: blank lines held until a non-blank line shows they are inside the block. */
  heldBlanks: string[] = [];
  /** HTML block: line ends owed before the next content (the last one is not content). */
  newlinesOwed = 0;
  /** Nesting depth of block quotes, lists and items. */
  depth = 0;
  /** Document and lists: children mounted so far, and the group new ones go in (see GROUP_SIZE). */
  mounted = 0;
  group: HTMLElement | null = null;

  constructor(
    readonly type: BlockType,
    readonly startLine: number,
  ) {}

  append(child: Block): void {
    child.parent = this;
    if (this.last) {
      this.last.next = child;
      child.prev = this.last;
    } else {
      this.first = child;
    }
    this.last = child;
  }
}

const canContain = (parent: BlockType, child: BlockType): boolean => {
  switch (parent) {
    case 'document': case 'block_quote': case 'item': return child !== 'item';
    case 'list': return child === 'item';
    default: return false;
  }
};
const acceptsLines = (t: BlockType): boolean => t === 'paragraph' || t === 'code_block' || t === 'html_block';

/** Options of a {@link MarkdownDocument}. */
export interface DocumentOptions {
  copyLabel: string;
  /** The accessible name of a task item's checkbox. */
  taskLabel: string;
  /** Whether TeX delimiters make math. */
  math: boolean;
}

/**
 * One incrementally parsed and rendered markdown document. `append` takes any piece of text; the DOM
 * under the root is what the text so far renders to, and after `end` it is exactly what the whole text
 * renders to, whatever the pieces were.
 */
export class MarkdownDocument implements LeafHost {
  private readonly doc: Block;
  private tip: Block;
  private oldtip: Block;
  private currentLine = '';
  private lineNumber = 0;
  private offset = 0;
  private column = 0;
  private nextNonspace = 0;
  private nextNonspaceColumn = 0;
  private indent = 0;
  private indented = false;
  private blank = false;
  private partiallyConsumedTab = false;
  private allClosed = true;
  private lastMatchedContainer: Block;
  private readonly refmap = new Map<string, LinkReference>();
  private readonly waiting = new Map<string, Set<Rerenderable>>();
  /** Text that referred to a label defined since, to render again (see {@link flushStale}). */
  private readonly stale = new Set<Rerenderable>();
  private definedSinceFlush = 0;
  private definedAtFlush = 0;
  private readonly needEntities = new Set<Rerenderable>();
  private unsubscribeEntities: (() => void) | null = null;
  private readonly kept = new WeakSet<object>();

  // Streaming state of the current line.
  private line = '';
  private streaming = false;
  private nextCheck = 0;
  private lineTarget: Block | null = null;
  private lineContent = '';
  private infoLine = false;
  private heldCR = false;
  private ended = false;

  constructor(
    readonly cx: DomContext,
    private readonly root: ParentNode,
    private readonly options: DocumentOptions,
  ) {
    this.doc = new Block('document', 1);
    this.tip = this.oldtip = this.lastMatchedContainer = this.doc;
  }

  /** Takes the next piece of text. */
  append(input: string): void {
    if (this.ended || input === '') return;
    this.cx.stats.charsParsed += input.length;
    let text = input.includes('\0') ? input.replace(/\0/g, '\ufffd') : input;
    if (this.heldCR) text = `\r${text}`;
    this.heldCR = text.endsWith('\r');
    if (this.heldCR) text = text.slice(0, -1);
    if (text.includes('\r')) text = text.replace(/\r\n?/g, '\n');
    let i = 0;
    while (i <= text.length) {
      const nl = text.indexOf('\n', i);
      this.feed(text.slice(i, nl === -1 ? text.length : nl));
      if (nl === -1) break;
      this.finishLine();
      i = nl + 1;
    }
    this.refresh();
  }

  /** Ends the document: the last line and every open block close. Idempotent. */
  end(): void {
    if (this.ended) return;
    if (this.heldCR) {
      this.heldCR = false;
      this.finishLine();
    }
    if (this.streaming || this.line !== '') this.finishLine();
    this.ended = true;
    while (this.tip.type !== 'document' || this.tip.open) {
      const parent = this.tip.parent;
      this.finalize(this.tip, this.lineNumber);
      if (!parent) break;
    }
    this.flushStale();
  }

  // ——— streaming lines ———

  private feed(piece: string): void {
    if (piece === '') return;
    if (this.streaming) {
      this.addContent(piece);
      return;
    }
    this.line += piece;
    // A long undecided line is checked again only when it has doubled (linear in its length).
    if (this.line.length < 256 || this.line.length >= this.nextCheck) {
      this.nextCheck = this.line.length * 2;
      if (lineDecided(this.line)) {
        this.incorporateLine(this.line);
        this.streaming = true;
      }
    }
  }

  private finishLine(): void {
    if (!this.streaming) this.incorporateLine(this.line);
    this.endLine();
    this.line = '';
    this.streaming = false;
    this.nextCheck = 0;
  }

  /** Content of the current line after its structure was applied: it goes to the line's block. */
  private addContent(text: string): void {
    const block = this.lineTarget;
    if (!block || text === '') return;
    if (block.type === 'table' || block.type === 'html_block') this.lineContent += text;
    switch (block.type) {
      case 'paragraph': case 'heading':
        block.leaf!.append(text);
        break;
      case 'code_block':
        if (this.infoLine) this.lineContent += text;
        else block.code!.append(text);
        break;
      case 'html_block':
        if (block.newlinesOwed > 0) {
          appendText(this.cx, block.el!, '\n'.repeat(block.newlinesOwed));
          block.newlinesOwed = 0;
        }
        appendText(this.cx, block.el!, text);
        break;
    }
  }

  private endLine(): void {
    const block = this.lineTarget;
    this.lineTarget = null;
    const content = this.lineContent;
    this.lineContent = '';
    if (!block || !block.open) return;
    switch (block.type) {
      case 'paragraph':
        block.leaf!.append('\n');
        this.takeDecidedDefinitions(block);
        break;
      case 'code_block':
        if (this.infoLine) {
          this.infoLine = false;
          block.code!.setInfo(unescapeString(content.trim()));
        } else {
          block.code!.endLine();
        }
        break;
      case 'html_block':
        block.newlinesOwed += 1;
        if (block.htmlBlockType >= 1 && block.htmlBlockType <= 5 && RE_HTML_BLOCK_CLOSE[block.htmlBlockType]!.test(content)) {
          this.finalize(block, this.lineNumber);
        }
        break;
      case 'table':
        block.table!.row(content, true);
        break;
    }
  }

  private flushHeldBlanks(block: Block): void {
    for (const blank of block.heldBlanks) {
      block.code!.append(blank);
      block.code!.endLine();
    }
    block.heldBlanks = [];
  }

  /**
   * A paragraph still receiving lines gives up the link reference definitions at its start as soon as
   * they are decided: kept until it closed, they were parsed again with each line (quadratic in their
   * number), and no text after them could settle.
   */
  private takeDecidedDefinitions(paragraph: Block): void {
    const leaf = paragraph.leaf!;
    if (!leaf.mayHoldDefinitions || !leaf.empty) return;
    const content = leaf.content();
    if (!content.startsWith('[')) return;
    const consumed = parseDecidedReferences(content, (label, ref) => this.define(label, ref));
    if (consumed > 0) leaf.rerender(content.slice(consumed));
  }

  /** Renders what the last append changed in the open leaf. */
  private refresh(): void {
    // Text waiting for definitions is rendered again each time their number has doubled (and at the end):
    // one definition at a time, a long text referring to many of them cost its length per definition.
    if (this.definedSinceFlush > 0 && this.definedSinceFlush >= this.definedAtFlush) this.flushStale();
    const tip = this.tip;
    tip.leaf?.update();
    if (this.streaming && this.lineTarget?.type === 'table') this.lineTarget.table!.row(this.lineContent, false);
  }

  // ——— the block algorithm (commonmark.js) ———

  private findNextNonspace(): void {
    const line = this.currentLine;
    let i = this.offset;
    let cols = this.column;
    let c = '';
    while ((c = line.charAt(i)) !== '') {
      if (c === ' ') {
        i++;
        cols++;
      } else if (c === '\t') {
        i++;
        cols += 4 - (cols % 4);
      } else {
        break;
      }
    }
    this.blank = c === '\n' || c === '\r' || c === '';
    this.nextNonspace = i;
    this.nextNonspaceColumn = cols;
    this.indent = this.nextNonspaceColumn - this.column;
    this.indented = this.indent >= CODE_INDENT;
  }

  private advanceOffset(count: number, columns: boolean): void {
    const line = this.currentLine;
    let c: string | undefined;
    while (count > 0 && (c = line[this.offset])) {
      if (c === '\t') {
        const charsToTab = 4 - (this.column % 4);
        if (columns) {
          this.partiallyConsumedTab = charsToTab > count;
          const charsToAdvance = charsToTab > count ? count : charsToTab;
          this.column += charsToAdvance;
          this.offset += this.partiallyConsumedTab ? 0 : 1;
          count -= charsToAdvance;
        } else {
          this.partiallyConsumedTab = false;
          this.column += charsToTab;
          this.offset += 1;
          count -= 1;
        }
      } else {
        this.partiallyConsumedTab = false;
        this.offset += 1;
        this.column += 1;
        count -= 1;
      }
    }
  }

  private advanceNextNonspace(): void {
    this.offset = this.nextNonspace;
    this.column = this.nextNonspaceColumn;
    this.partiallyConsumedTab = false;
  }

  /** Adds the rest of the current line to the tip (its line end comes with {@link endLine}). */
  private addLine(): void {
    let text = '';
    if (this.partiallyConsumedTab) {
      this.offset += 1;
      text = ' '.repeat(4 - (this.column % 4));
    }
    text += this.currentLine.slice(this.offset);
    const tip = this.tip;
    this.lineContent = '';
    if (tip.type === 'code_block' && !tip.fenced && this.blank) {
      // Blank lines belong to an indented code block only if code follows them.
      tip.heldBlanks.push(text);
      this.lineTarget = null;
      return;
    }
    this.lineTarget = tip;
    if (tip.type === 'code_block') {
      if (tip.infoPending) {
        tip.infoPending = false;
        this.infoLine = true;
      } else if (!tip.fenced) {
        this.flushHeldBlanks(tip);
      }
    }
    this.addContent(text);
  }

  private addChild(type: BlockType): Block {
    while (!canContain(this.tip.type, type)) this.finalize(this.tip, this.lineNumber - 1);
    const block = new Block(type, this.lineNumber);
    const parent = this.tip;
    parent.append(block);
    block.depth = parent.depth + (type === 'block_quote' || type === 'list' || type === 'item' ? 1 : 0);
    // A blank line between two items, or two blocks of an item, makes the list loose (§5.3).
    const prev = block.prev;
    if (prev && prev.endLine !== block.startLine - 1) {
      if (parent.type === 'list') this.loosen(parent);
      else if (parent.type === 'item' && parent.parent) this.loosen(parent.parent);
    }
    this.tip = block;
    return block;
  }

  /** The element a block's next child goes in. */
  private domParent(block: Block): ParentNode {
    return block.group ?? (block.type === 'document' ? this.root : block.el!);
  }

  /**
   * Counts a child about to be mounted in the document or a list; past {@link GROUP_SIZE} (a list:
   * {@link LIST_GROUP_SIZE}) children they go in groups (the first time, the children so far become the
   * first group).
   */
  private beforeChild(block: Block): void {
    if (block.type !== 'document' && block.type !== 'list') return;
    const n = block.mounted++;
    const size = block.type === 'document' ? GROUP_SIZE : LIST_GROUP_SIZE;
    if (n === 0 || n % size !== 0) return;
    const cx = this.cx;
    const container = (block.type === 'document' ? this.root : block.el!) as Node;
    const group = (): HTMLElement => {
      const div = createElement(cx, 'div');
      setAttribute(cx, div, 'part', 'group');
      setAttribute(cx, div, 'role', 'none');
      return div;
    };
    if (block.group === null) {
      const first = group();
      while (container.firstChild) first.appendChild(container.firstChild);
      cx.stats.nodesTouched += size;
      appendNode(cx, container, first);
      // An ordered list's items number themselves across groups (a group contains its counters).
      if (block.listData?.type === 'ordered') {
        let value = block.listData.start;
        for (const li of first.children) setAttribute(cx, li, 'value', String(value++));
      }
    }
    block.group = appendNode(cx, container, group());
  }

  /** Creates the DOM of a block just added (after its type-specific fields are set). */
  private mount(block: Block): void {
    const cx = this.cx;
    this.beforeChild(block.parent!);
    const parent = this.domParent(block.parent!);
    switch (block.type) {
      case 'block_quote':
        block.el = appendNode(cx, parent as Node, createElement(cx, 'blockquote'));
        break;
      case 'list': {
        const data = block.listData!;
        const el = createElement(cx, data.type === 'bullet' ? 'ul' : 'ol');
        if (data.type === 'ordered' && data.start !== 1) setAttribute(cx, el, 'start', String(data.start));
        block.el = appendNode(cx, parent as Node, el);
        break;
      }
      case 'item': {
        const list = block.parent!;
        block.el = appendNode(cx, parent as Node, createElement(cx, 'li'));
        if (list.group && list.listData?.type === 'ordered') {
          setAttribute(cx, block.el, 'value', String(list.listData.start + list.mounted - 1));
        }
        break;
      }
      case 'paragraph': {
        const item = block.parent!;
        const tight = item.type === 'item' && item.parent!.listData!.tight;
        if (!tight) block.el = appendNode(cx, parent as Node, createElement(cx, 'p'));
        block.leaf = new InlineLeaf(this, block.el ?? parent);
        block.leaf.mayHoldDefinitions = true;
        break;
      }
      case 'heading':
        block.el = appendNode(cx, parent as Node, createElement(cx, `h${block.level}` as 'h1'));
        block.leaf = new InlineLeaf(this, block.el);
        block.leaf.heading = true;
        break;
      case 'thematic_break':
        block.el = appendNode(cx, parent as Node, createElement(cx, 'hr'));
        break;
      case 'code_block':
        block.code = new CodeBlockView(cx, parent as Node, { copyLabel: this.options.copyLabel });
        block.el = block.code.element;
        break;
      case 'html_block': {
        // Raw HTML is shown as the text it is.
        const pre = createElement(cx, 'pre');
        setAttribute(cx, pre, 'part', 'raw-html');
        block.el = appendNode(cx, parent as Node, pre);
        break;
      }
    }
  }

  /** A list turned loose: the text of its items' paragraphs gains its `<p>`. */
  private loosen(list: Block): void {
    const data = list.listData!;
    if (!data.tight) return;
    data.tight = false;
    for (let item = list.first; item; item = item.next) {
      for (let child = item.first; child; child = child.next) {
        if (child.type === 'paragraph' && child.el === null && child.leaf) {
          if (child.leaf.empty && child.leaf.complete) continue;
          const p = createElement(this.cx, 'p');
          child.leaf.wrapIn(p);
          child.el = p;
        }
      }
    }
  }

  private closeUnmatchedBlocks(): void {
    if (this.allClosed) return;
    while (this.oldtip !== this.lastMatchedContainer) {
      const parent = this.oldtip.parent!;
      this.finalize(this.oldtip, this.lineNumber - 1);
      this.oldtip = parent;
    }
    this.allClosed = true;
  }

  /** 0: matched, 1: not matched, 2: the line was a closing code fence and is done. */
  private continueBlock(container: Block): 0 | 1 | 2 {
    const line = this.currentLine;
    switch (container.type) {
      case 'document': case 'list':
        return 0;
      case 'block_quote':
        if (!this.indented && line.charAt(this.nextNonspace) === '>') {
          this.advanceNextNonspace();
          this.advanceOffset(1, false);
          if (isSpaceOrTab(line[this.offset])) this.advanceOffset(1, true);
          return 0;
        }
        return 1;
      case 'item': {
        const data = container.listData!;
        if (this.blank) {
          if (container.first === null) return 1;
          this.advanceNextNonspace();
        } else if (this.indent >= data.markerOffset + data.padding) {
          this.advanceOffset(data.markerOffset + data.padding, true);
        } else {
          return 1;
        }
        return 0;
      }
      case 'heading': case 'thematic_break':
        return 1;
      case 'code_block':
        if (container.fenced) {
          const match =
            this.indent <= 3 &&
            line.charAt(this.nextNonspace) === container.fenceChar &&
            RE_CLOSING_CODE_FENCE.exec(line.slice(this.nextNonspace));
          if (match && match[0].length >= container.fenceLength) {
            this.finalize(container, this.lineNumber);
            return 2;
          }
          let i = container.fenceOffset;
          while (i > 0 && isSpaceOrTab(line[this.offset])) {
            this.advanceOffset(1, true);
            i--;
          }
          return 0;
        }
        if (this.indent >= CODE_INDENT) this.advanceOffset(CODE_INDENT, true);
        else if (this.blank) this.advanceNextNonspace();
        else return 1;
        return 0;
      case 'html_block':
        return this.blank && (container.htmlBlockType === 6 || container.htmlBlockType === 7) ? 1 : 0;
      case 'paragraph':
        return this.blank ? 1 : 0;
      case 'table':
        return this.blank || splitRow(line.slice(this.nextNonspace)) === null ? 1 : 0;
    }
  }

  private incorporateLine(ln: string): void {
    let container = this.doc;
    this.oldtip = this.tip;
    this.offset = 0;
    this.column = 0;
    this.blank = false;
    this.partiallyConsumedTab = false;
    this.lineNumber += 1;
    this.currentLine = ln;
    this.lineTarget = null;
    this.lineContent = '';

    let last: Block | null;
    while ((last = container.last) && last.open) {
      container = last;
      this.findNextNonspace();
      const res = this.continueBlock(container);
      if (res === 2) return;
      if (res === 1) {
        container = container.parent!;
        break;
      }
    }
    this.allClosed = container === this.oldtip;
    this.lastMatchedContainer = container;

    let matchedLeaf = container.type !== 'paragraph' && acceptsLines(container.type);
    while (!matchedLeaf) {
      this.findNextNonspace();
      if (!this.indented && !RE_MAYBE_SPECIAL.test(ln.slice(this.nextNonspace))) {
        this.advanceNextNonspace();
        break;
      }
      const res = this.tryBlockStarts(container);
      if (res === 0) {
        this.advanceNextNonspace();
        break;
      }
      container = this.tip;
      if (res === 2) matchedLeaf = true;
    }

    if (!this.allClosed && !this.blank && this.tip.type === 'paragraph') {
      // a lazy continuation line
      this.addLine();
      return;
    }
    this.closeUnmatchedBlocks();
    const t = container.type;
    if (acceptsLines(t)) {
      this.addLine();
    } else if (t === 'table') {
      if (!this.blank && this.offset < ln.length) {
        this.lineTarget = container;
        this.lineContent = ln.slice(this.nextNonspace);
      }
    } else if (this.offset < ln.length && !this.blank) {
      const p = this.addChild('paragraph');
      this.mount(p);
      this.advanceNextNonspace();
      this.addLine();
    }
  }

  /** Tries each block start in CommonMark's order: 0 none, 1 a container opened, 2 a leaf opened. */
  private tryBlockStarts(container: Block): 0 | 1 | 2 {
    const ln = this.currentLine;
    const rest = (): string => ln.slice(this.nextNonspace);
    // block quote
    if (!this.indented && ln.charAt(this.nextNonspace) === '>' && container.depth < MAX_NESTING) {
      this.advanceNextNonspace();
      this.advanceOffset(1, false);
      if (isSpaceOrTab(ln[this.offset])) this.advanceOffset(1, true);
      this.closeUnmatchedBlocks();
      this.mount(this.addChild('block_quote'));
      return 1;
    }
    // ATX heading
    let match: RegExpExecArray | null;
    if (!this.indented && (match = RE_ATX_HEADING_MARKER.exec(rest()))) {
      this.advanceNextNonspace();
      this.advanceOffset(match[0].length, false);
      this.closeUnmatchedBlocks();
      const heading = this.addChild('heading');
      heading.level = match[0].trim().length;
      this.mount(heading);
      heading.leaf!.append(ln.slice(this.offset));
      this.lineTarget = heading;
      this.offset = ln.length;
      return 2;
    }
    // fenced code block
    if (!this.indented && (match = RE_CODE_FENCE.exec(rest()))) {
      const fenceLength = match[0].length;
      this.closeUnmatchedBlocks();
      const block = this.addChild('code_block');
      block.fenced = true;
      block.fenceLength = fenceLength;
      block.fenceChar = match[0][0]!;
      block.fenceOffset = this.indent;
      block.infoPending = true;
      this.mount(block);
      this.advanceNextNonspace();
      this.advanceOffset(fenceLength, false);
      return 2;
    }
    // HTML block
    if (!this.indented && ln.charAt(this.nextNonspace) === '<') {
      const s = rest();
      for (let type = 1; type <= 7; type++) {
        if (
          RE_HTML_BLOCK_OPEN[type]!.test(s) &&
          (type < 7 || (container.type !== 'paragraph' && !(!this.allClosed && !this.blank && this.tip.type === 'paragraph')))
        ) {
          this.closeUnmatchedBlocks();
          const block = this.addChild('html_block');
          block.htmlBlockType = type;
          this.mount(block);
          return 2;
        }
      }
    }
    // setext heading
    if (!this.indented && container.type === 'paragraph' && (match = RE_SETEXT_HEADING_LINE.exec(rest()))) {
      this.closeUnmatchedBlocks();
      const leaf = container.leaf!;
      let content = leaf.content();
      const consumed = parseReferences(content, (label, ref) => this.define(label, ref));
      if (consumed > 0) content = content.slice(consumed);
      if (content.length > 0) {
        this.toHeading(container, match[0][0] === '=' ? 1 : 2, consumed > 0 ? content : null);
        this.advanceOffset(ln.length - this.offset, false);
        return 2;
      }
      if (consumed > 0) leaf.rerender('');
    }
    // thematic break
    if (!this.indented && RE_THEMATIC_BREAK.test(rest())) {
      this.closeUnmatchedBlocks();
      this.mount(this.addChild('thematic_break'));
      this.advanceOffset(ln.length - this.offset, false);
      return 2;
    }
    // list item
    let data: ListData | null;
    if ((!this.indented || container.type === 'list') && container.depth < MAX_NESTING - 1 && (data = this.parseListMarker(container))) {
      this.closeUnmatchedBlocks();
      if (this.tip.type !== 'list' || !listsMatch(container.listData!, data)) {
        const list = this.addChild('list');
        list.listData = data;
        this.mount(list);
      }
      const item = this.addChild('item');
      item.listData = data;
      this.mount(item);
      // GFM task list item: `[ ]`, `[x]` or `[X]` and a space at the start of the item's first line.
      if (RE_TASK_MARKER.test(ln.slice(this.offset))) {
        const box = createElement(this.cx, 'input');
        setAttribute(this.cx, box, 'type', 'checkbox');
        setAttribute(this.cx, box, 'disabled', '');
        setAttribute(this.cx, box, 'aria-label', this.options.taskLabel);
        if (ln[this.offset + 1] !== ' ') setAttribute(this.cx, box, 'checked', '');
        appendNode(this.cx, item.el!, box);
        appendText(this.cx, item.el!, ' ');
        this.advanceOffset(3, false);
      }
      return 1;
    }
    // indented code block
    if (this.indented && this.tip.type !== 'paragraph' && !this.blank) {
      this.advanceOffset(CODE_INDENT, true);
      this.closeUnmatchedBlocks();
      this.mount(this.addChild('code_block'));
      return 2;
    }
    // GFM table: a delimiter row under a paragraph whose last line has as many cells.
    if (!this.indented && container.type === 'paragraph' && isDelimiterRow(rest())) {
      const content = container.leaf!.content().replace(/\n$/, '');
      const lineStart = content.lastIndexOf('\n') + 1;
      const header = splitRow(content.slice(lineStart));
      const align = alignments(rest());
      if (header && header.length === align.length) {
        this.closeUnmatchedBlocks();
        this.toTable(container, lineStart > 0 ? content.slice(0, lineStart) : null, header, align);
        this.advanceOffset(ln.length - this.offset, false);
        return 2;
      }
    }
    return 0;
  }

  private parseListMarker(container: Block): ListData | null {
    const line = this.currentLine;
    const rest = line.slice(this.nextNonspace);
    if (this.indent >= 4) return null;
    let match: RegExpExecArray | null;
    const data: ListData = { type: 'bullet', tight: true, bulletChar: '', start: 1, delimiter: '', padding: 0, markerOffset: this.indent };
    if ((match = RE_BULLET_LIST_MARKER.exec(rest))) {
      data.bulletChar = match[0][0]!;
    } else if ((match = RE_ORDERED_LIST_MARKER.exec(rest)) && (container.type !== 'paragraph' || match[1] === '1')) {
      data.type = 'ordered';
      data.start = Number.parseInt(match[1]!, 10);
      data.delimiter = match[2]!;
    } else {
      return null;
    }
    const nextc = line.charAt(this.nextNonspace + match[0].length);
    if (!(nextc === '' || nextc === '\t' || nextc === ' ')) return null;
    if (container.type === 'paragraph' && !RE_NON_SPACE.test(line.slice(this.nextNonspace + match[0].length))) return null;
    this.advanceNextNonspace();
    this.advanceOffset(match[0].length, true);
    const spacesStartCol = this.column;
    const spacesStartOffset = this.offset;
    do {
      this.advanceOffset(1, true);
    } while (this.column - spacesStartCol < 5 && isSpaceOrTab(line[this.offset]));
    const blankItem = line[this.offset] === undefined;
    const spacesAfterMarker = this.column - spacesStartCol;
    if (spacesAfterMarker >= 5 || spacesAfterMarker < 1 || blankItem) {
      data.padding = match[0].length + 1;
      this.column = spacesStartCol;
      this.offset = spacesStartOffset;
      if (isSpaceOrTab(line[this.offset])) this.advanceOffset(1, true);
    } else {
      data.padding = match[0].length + spacesAfterMarker;
    }
    return data;
  }

  /** A setext underline: the paragraph becomes a heading (its inline DOM moves into the new element). */
  private toHeading(paragraph: Block, level: number, content: string | null): void {
    const cx = this.cx;
    const h = createElement(cx, `h${level}` as 'h1');
    const leaf = paragraph.leaf!;
    if (paragraph.el) {
      paragraph.el.replaceWith(h);
      leaf.moveInto(h);
      cx.stats.nodesTouched += 1;
    } else {
      leaf.wrapIn(h);
    }
    leaf.mayHoldDefinitions = false;
    const heading = new Block('heading', paragraph.startLine);
    heading.level = level;
    heading.el = h;
    heading.leaf = leaf;
    heading.depth = paragraph.depth;
    this.replaceBlock(paragraph, heading);
    if (content !== null) leaf.rerender(content);
    this.tip = heading;
  }

  /** A delimiter row: the paragraph's last line becomes the header of a table (earlier lines stay a paragraph). */
  private toTable(paragraph: Block, before: string | null, header: string[], align: ReturnType<typeof alignments>): void {
    const cx = this.cx;
    const leaf = paragraph.leaf!;
    const table = new Block('table', this.lineNumber - 1);
    table.depth = paragraph.depth;
    if (before !== null) {
      leaf.rerender(before);
      this.finalize(paragraph, this.lineNumber - 2);
      const parent = paragraph.parent!;
      parent.append(table);
    } else {
      leaf.rerender('');
      paragraph.el?.remove();
      cx.stats.nodesTouched += 1;
      this.replaceBlock(paragraph, table);
    }
    this.beforeChild(table.parent!);
    table.table = new TableView(cx, this.domParent(table.parent!) as Node, header, align, (row) => this.contextFor(row));
    table.el = table.table.element;
    this.tip = table;
  }

  private replaceBlock(old: Block, block: Block): void {
    const parent = old.parent!;
    block.parent = parent;
    block.prev = old.prev;
    block.next = old.next;
    if (old.prev) old.prev.next = block;
    else parent.first = block;
    if (old.next) old.next.prev = block;
    else parent.last = block;
  }

  private finalize(block: Block, lineNumber: number): void {
    const above = block.parent;
    block.open = false;
    block.endLine = lineNumber;
    switch (block.type) {
      case 'list': {
        for (let item = block.first; item; item = item.next) {
          if (item.next && item.endLine !== item.next.startLine - 1) this.loosen(block);
          for (let sub = item.first; sub; sub = sub.next) {
            if (sub.next && sub.endLine !== sub.next.startLine - 1) this.loosen(block);
          }
        }
        block.endLine = block.last ? block.last.endLine : block.endLine;
        break;
      }
      case 'item':
        block.endLine = block.last ? block.last.endLine : block.startLine;
        break;
      case 'paragraph': {
        const leaf = block.leaf!;
        const content = leaf.content();
        if (content.startsWith('[')) {
          const consumed = parseReferences(content, (label, ref) => this.define(label, ref));
          if (consumed > 0) {
            const rest = content.slice(consumed);
            leaf.rerender(RE_NON_SPACE.test(rest) ? rest : '');
            if (!RE_NON_SPACE.test(rest) && block.el) {
              block.el.remove();
              this.cx.stats.nodesTouched += 1;
            }
          }
        }
        leaf.finish();
        if (!this.kept.has(leaf)) leaf.release();
        break;
      }
      case 'heading':
        block.leaf!.finish();
        if (!this.kept.has(block.leaf!)) block.leaf!.release();
        break;
      case 'code_block':
        if (this.lineTarget === block && this.infoLine) {
          this.infoLine = false;
          block.code!.setInfo(unescapeString(this.lineContent.trim()));
        }
        block.code!.finish();
        block.heldBlanks = [];
        break;
      case 'table':
        if (this.lineTarget === block) {
          block.table!.row(this.lineContent, true);
          this.lineTarget = null;
        }
        break;
    }
    if (this.lineTarget === block && block.type !== 'paragraph' && block.type !== 'heading') this.lineTarget = null;
    this.tip = above ?? block;
  }

  // ——— link reference definitions and late re-renders ———

  private define(label: string, ref: LinkReference): void {
    if (this.refmap.has(label)) return;
    this.refmap.set(label, ref);
    const waiting = this.waiting.get(label);
    if (!waiting) return;
    this.waiting.delete(label);
    for (const target of waiting) this.stale.add(target);
    this.definedSinceFlush += 1;
  }

  /** Renders again the text that referred to labels defined since the last flush. */
  private flushStale(): void {
    this.definedAtFlush += this.definedSinceFlush;
    this.definedSinceFlush = 0;
    const targets = [...this.stale];
    this.stale.clear();
    for (const target of targets) target.rerender();
  }

  private contextFor(target: Rerenderable): InlineContext {
    return {
      reference: (label) => this.refmap.get(label),
      missing: (label) => {
        let set = this.waiting.get(label);
        if (!set) this.waiting.set(label, (set = new Set()));
        set.add(target);
        this.kept.add(target);
      },
      math: this.options.math,
    };
  }

  inlineContext(leaf: InlineLeaf): InlineContext {
    return this.contextFor(leaf);
  }

  needsEntities(leaf: InlineLeaf): void {
    this.kept.add(leaf);
    this.needEntities.add(leaf);
    this.unsubscribeEntities ??= onEntitiesLoaded(() => {
      this.unsubscribeEntities?.();
      this.unsubscribeEntities = null;
      const targets = [...this.needEntities];
      this.needEntities.clear();
      for (const target of targets) target.rerender();
    });
  }
}

function listsMatch(list: ListData, item: ListData): boolean {
  return list.type === item.type && list.delimiter === item.delimiter && list.bulletChar === item.bulletChar;
}
