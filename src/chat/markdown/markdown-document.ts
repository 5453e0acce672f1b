/**
 * The block parser: CommonMark 0.31.2's line-by-line block algorithm (commonmark.js's blocks.js: open
 * containers are matched against each line, then new block starts are tried, then the rest of the line
 * goes to the open leaf), plus GFM tables and task list items, building the DOM as blocks open. What each
 * block type does is its record in `block-types.ts`; the starts are the array in `block-starts.ts`.
 *
 * Streaming: a line is applied as soon as its block structure is decided ({@link lineDecided}), not
 * when it ends, and the rest of it streams into the open leaf. Blocks that close are final; what changes
 * earlier output is patched where it lands: a setext underline re-tags its paragraph, a delimiter row turns
 * the paragraph's last line into a table header, a blank line between items loosens a list (its items'
 * text gains `<p>`), and a link definition re-renders the text that referred to it.
 */
import { Block, type BlockType } from './block.js';
import { placeChild } from './block-groups.js';
import { BLOCK_STARTS, RE_MAYBE_SPECIAL } from './block-starts.js';
import { BLOCK_TYPES } from './block-types.js';
import { createElement, type DomContext } from './inline-dom.js';
import type { InlineContext } from './inlines.js';
import type { InlineLeaf, LeafHost } from './leaf.js';
import { LineCursor } from './line-cursor.js';
import { References } from './references.js';

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
 * renders to, whatever the pieces were. Its block algorithm's state is open to the block type records and
 * block starts, as commonmark.js's parser is to its `blocks` table.
 */
export class MarkdownDocument extends LineCursor implements LeafHost {
  private readonly doc = new Block('document', 1);
  /** The deepest open block. */
  tip: Block = this.doc;
  private oldtip: Block = this.doc;
  lineNumber = 0;
  /** Whether every block left open by the previous line is matched on this one. */
  allClosed = true;
  private lastMatchedContainer: Block = this.doc;
  readonly refs: References;

  // Streaming state of the current line.
  private partial = '';
  private streaming = false;
  private nextCheck = 0;
  /** The block the rest of the current line goes to. */
  lineTarget: Block | null = null;
  /** What the line target collected of the current line (a table row, an info string, HTML). */
  lineContent = '';
  /** Whether the current line is a code fence's info string. */
  infoLine = false;
  private heldCR = false;
  private ended = false;

  constructor(
    readonly cx: DomContext,
    private readonly root: ParentNode,
    readonly options: DocumentOptions,
  ) {
    super();
    this.refs = new References(options.math);
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
    if (this.streaming || this.partial !== '') this.finishLine();
    this.ended = true;
    while (this.tip.type !== 'document' || this.tip.open) {
      const parent = this.tip.parent;
      this.finalize(this.tip, this.lineNumber);
      if (!parent) break;
    }
    this.refs.flush();
  }

  // ——— streaming lines ———

  private feed(piece: string): void {
    if (piece === '') return;
    if (this.streaming) {
      this.addContent(piece);
      return;
    }
    this.partial += piece;
    // A long undecided line is checked again only when it has doubled (linear in its length).
    if (this.partial.length < 256 || this.partial.length >= this.nextCheck) {
      this.nextCheck = this.partial.length * 2;
      if (lineDecided(this.partial)) {
        this.incorporateLine(this.partial);
        this.streaming = true;
      }
    }
  }

  private finishLine(): void {
    if (!this.streaming) this.incorporateLine(this.partial);
    this.endLine();
    this.partial = '';
    this.streaming = false;
    this.nextCheck = 0;
  }

  /** Content of the current line after its structure was applied: it goes to the line's block. */
  private addContent(text: string): void {
    const block = this.lineTarget;
    if (!block || text === '') return;
    BLOCK_TYPES[block.type].addText?.(this, block, text);
  }

  private endLine(): void {
    const block = this.lineTarget;
    this.lineTarget = null;
    const content = this.lineContent;
    this.lineContent = '';
    if (!block || !block.open) return;
    BLOCK_TYPES[block.type].lineEnded?.(this, block, content);
  }

  /** Renders what the last append changed in the open leaf. */
  private refresh(): void {
    // Text waiting for definitions is rendered again each time their number has doubled (and at the end).
    this.refs.flushIfDue();
    this.tip.leaf?.update();
    if (this.streaming) this.lineTarget?.table?.row(this.lineContent, false);
  }

  // ——— the block algorithm (commonmark.js) ———

  private incorporateLine(ln: string): void {
    let container = this.doc;
    this.oldtip = this.tip;
    this.startLine(ln);
    this.lineNumber += 1;
    this.lineTarget = null;
    this.lineContent = '';

    let last: Block | null;
    while ((last = container.last) && last.open) {
      container = last;
      this.findNextNonspace();
      const res = BLOCK_TYPES[container.type].continue(this, container);
      if (res === 2) return;
      if (res === 1) {
        container = container.parent!;
        break;
      }
    }
    this.allClosed = container === this.oldtip;
    this.lastMatchedContainer = container;

    let matchedLeaf = container.type !== 'paragraph' && BLOCK_TYPES[container.type].acceptsLines === true;
    while (!matchedLeaf) {
      this.findNextNonspace();
      if (!this.indented && !RE_MAYBE_SPECIAL.test(this.rest())) {
        this.advanceNextNonspace();
        break;
      }
      let res: 0 | 1 | 2 = 0;
      for (const start of BLOCK_STARTS) if ((res = start(this, container)) !== 0) break;
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
    if (BLOCK_TYPES[container.type].acceptsLines) {
      this.addLine();
    } else if (container.type === 'table') {
      // A table row streams into the table's line content, rendered as a row (see `table.ts`).
      if (!this.blank && this.offset < ln.length) {
        this.lineTarget = container;
        this.lineContent = this.rest();
      }
    } else if (this.offset < ln.length && !this.blank) {
      this.mount(this.addChild('paragraph'));
      this.advanceNextNonspace();
      this.addLine();
    }
  }

  /** Adds the rest of the current line to the tip (its line end comes with {@link endLine}). */
  private addLine(): void {
    const text = this.takeRest();
    const tip = this.tip;
    this.lineContent = '';
    if (BLOCK_TYPES[tip.type].lineStarted?.(this, tip, text) === false) {
      this.lineTarget = null;
      return;
    }
    this.lineTarget = tip;
    this.addContent(text);
  }

  /** Adds a block of `type` under the tip, closing open blocks that cannot contain it. */
  addChild(type: BlockType): Block {
    while (!BLOCK_TYPES[this.tip.type].canContain?.(type)) this.finalize(this.tip, this.lineNumber - 1);
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

  /** The element the next child of `block` goes in (counted for grouping, see `block-groups.ts`). */
  placeIn(block: Block): ParentNode {
    return placeChild(this.cx, block, block === this.doc ? this.root : block.el!);
  }

  /** Creates the DOM of a block just added (after its type-specific fields are set). */
  mount(block: Block): void {
    BLOCK_TYPES[block.type].mount?.(this, block, this.placeIn(block.parent!));
  }

  /** A list turned loose: the text of its items' paragraphs gains its `<p>`. */
  loosen(list: Block): void {
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

  /** Closes the blocks the current line did not continue (once a new block starts, or a line is added). */
  closeUnmatchedBlocks(): void {
    if (this.allClosed) return;
    while (this.oldtip !== this.lastMatchedContainer) {
      const parent = this.oldtip.parent!;
      this.finalize(this.oldtip, this.lineNumber - 1);
      this.oldtip = parent;
    }
    this.allClosed = true;
  }

  /** Closes `block` as of `lineNumber`; its parent becomes the tip. */
  finalize(block: Block, lineNumber: number): void {
    const above = block.parent;
    block.open = false;
    block.endLine = lineNumber;
    BLOCK_TYPES[block.type].finalize?.(this, block);
    // The rest of a line whose block closed goes nowhere (a paragraph's or heading's leaf ignores it).
    if (this.lineTarget === block && !block.leaf) this.lineTarget = null;
    this.tip = above ?? block;
  }

  inlineContext(leaf: InlineLeaf): InlineContext {
    return this.refs.contextFor(leaf);
  }

  needsEntities(leaf: InlineLeaf): void {
    this.refs.needsEntities(leaf);
  }
}
