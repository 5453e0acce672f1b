/**
 * What each block type does, one record per type (commonmark.js's `blocks` table): whether an open block
 * continues on a new line, what closing it does, what it may contain, whether it takes the rest of a line
 * as content, and its DOM: the element it mounts, and how streamed text and line ends reach it.
 */
import type { Block, BlockType } from './block.js';
import { numberItem } from './block-groups.js';
import { CodeBlockView } from './code-block.js';
import { appendNode, appendText, createElement, setAttribute } from './inline-dom.js';
import { parseDecidedReferences, parseReferences } from './inlines.js';
import { InlineLeaf } from './leaf.js';
import { CODE_INDENT, isSpaceOrTab, RE_NON_SPACE } from './line-cursor.js';
import type { MarkdownDocument } from './markdown-document.js';
import { unescapeString } from './syntax.js';
import { splitRow } from './table.js';

/** The behaviour of one block type. */
export interface BlockSpec {
  /**
   * Whether the open block continues on the current line (consuming its markers): 0 it does, 1 it does
   * not, 2 the line is done (it was a closing code fence).
   */
  continue(p: MarkdownDocument, block: Block): 0 | 1 | 2;
  /** What closing the block does beyond marking it closed. */
  finalize?(p: MarkdownDocument, block: Block): void;
  /** Whether a block of type `t` may be its child (absent: none may, it is a leaf). */
  canContain?(t: BlockType): boolean;
  /** Whether the rest of a line is its content (a leaf that takes lines); absent: it is not. */
  acceptsLines?: true;
  /** Creates its DOM in `parent` (after its type-specific fields are set). */
  mount?(p: MarkdownDocument, block: Block, parent: ParentNode): void;
  /** The current line starts going to the block; `false` holds it back. */
  lineStarted?(p: MarkdownDocument, block: Block, text: string): boolean;
  /** Text of the current line, as it streams in. */
  addText?(p: MarkdownDocument, block: Block, text: string): void;
  /** The current line ended; `content` is what the block collected of it in {@link MarkdownDocument.lineContent}. */
  lineEnded?(p: MarkdownDocument, block: Block, content: string): void;
}

const RE_HTML_BLOCK_CLOSE = [/./, /<\/(?:script|pre|textarea|style)>/i, /-->/, /\?>/, />/, /\]\]>/];
const RE_CLOSING_CODE_FENCE = /^(?:`{3,}|~{3,})(?=[ \t]*$)/;

const containsAnyButItems = (t: BlockType): boolean => t !== 'item';
const addToLeaf = (_p: MarkdownDocument, block: Block, text: string): void => block.leaf!.append(text);

/** Appends the block's own element, a new `tag`, to `parent`. */
function mountElement<K extends keyof HTMLElementTagNameMap>(p: MarkdownDocument, block: Block, parent: ParentNode, tag: K): HTMLElementTagNameMap[K] {
  const el = appendNode(p.cx, parent as Node, createElement(p.cx, tag));
  block.el = el;
  return el;
}

/** Settles a paragraph's or heading's text; its source goes unless a late re-render may need it. */
function finishLeaf(p: MarkdownDocument, leaf: InlineLeaf): void {
  leaf.finish();
  if (!p.refs.keeps(leaf)) leaf.release();
}

/**
 * A paragraph still receiving lines gives up the link reference definitions at its start as soon as
 * they are decided: kept until it closed, they were parsed again with each line (quadratic in their
 * number), and no text after them could settle.
 */
function takeDecidedDefinitions(p: MarkdownDocument, paragraph: Block): void {
  const leaf = paragraph.leaf!;
  if (!leaf.mayHoldDefinitions || !leaf.empty) return;
  const content = leaf.content();
  if (!content.startsWith('[')) return;
  const consumed = parseDecidedReferences(content, p.refs.define);
  if (consumed > 0) leaf.rerender(content.slice(consumed));
}

function flushHeldBlanks(block: Block): void {
  for (const blank of block.heldBlanks) {
    block.code!.append(blank);
    block.code!.endLine();
  }
  block.heldBlanks = [];
}

/** The record of each block type. */
export const BLOCK_TYPES: Record<BlockType, BlockSpec> = {
  document: {
    continue: () => 0,
    canContain: containsAnyButItems,
  },
  block_quote: {
    continue(p) {
      if (!p.indented && p.currentLine.charAt(p.nextNonspace) === '>') {
        p.advanceNextNonspace();
        p.advanceOffset(1, false);
        if (isSpaceOrTab(p.currentLine[p.offset])) p.advanceOffset(1, true);
        return 0;
      }
      return 1;
    },
    canContain: containsAnyButItems,
    mount: (p, block, parent) => void mountElement(p, block, parent, 'blockquote'),
  },
  list: {
    continue: () => 0,
    finalize(p, block) {
      // A blank line between two items, or two blocks of an item, makes the list loose (§5.3).
      for (let item = block.first; item; item = item.next) {
        if (item.next && item.endLine !== item.next.startLine - 1) p.loosen(block);
        for (let sub = item.first; sub; sub = sub.next) {
          if (sub.next && sub.endLine !== sub.next.startLine - 1) p.loosen(block);
        }
      }
      block.endLine = block.last ? block.last.endLine : block.endLine;
    },
    canContain: (t) => t === 'item',
    mount(p, block, parent) {
      const data = block.listData!;
      const el = mountElement(p, block, parent, data.type === 'bullet' ? 'ul' : 'ol');
      if (data.type === 'ordered' && data.start !== 1) setAttribute(p.cx, el, 'start', String(data.start));
    },
  },
  item: {
    continue(p, block) {
      const data = block.listData!;
      if (p.blank) {
        if (block.first === null) return 1;
        p.advanceNextNonspace();
      } else if (p.indent >= data.markerOffset + data.padding) {
        p.advanceOffset(data.markerOffset + data.padding, true);
      } else {
        return 1;
      }
      return 0;
    },
    finalize(_p, block) {
      block.endLine = block.last ? block.last.endLine : block.startLine;
    },
    canContain: containsAnyButItems,
    mount(p, block, parent) {
      numberItem(p.cx, block.parent!, mountElement(p, block, parent, 'li'));
    },
  },
  paragraph: {
    continue: (p) => (p.blank ? 1 : 0),
    finalize(p, block) {
      const leaf = block.leaf!;
      const content = leaf.content();
      if (content.startsWith('[')) {
        const consumed = parseReferences(content, p.refs.define);
        if (consumed > 0) {
          const rest = content.slice(consumed);
          leaf.rerender(RE_NON_SPACE.test(rest) ? rest : '');
          if (!RE_NON_SPACE.test(rest) && block.el) {
            block.el.remove();
            p.cx.stats.nodesTouched += 1;
          }
        }
      }
      finishLeaf(p, leaf);
    },
    acceptsLines: true,
    mount(p, block, parent) {
      // A tight list's item text has no `<p>` (it gains one if the list turns loose).
      const item = block.parent!;
      const tight = item.type === 'item' && item.parent!.listData!.tight;
      if (!tight) mountElement(p, block, parent, 'p');
      block.leaf = new InlineLeaf(p, block.el ?? parent);
      block.leaf.mayHoldDefinitions = true;
    },
    addText: addToLeaf,
    lineEnded(p, block) {
      block.leaf!.append('\n');
      takeDecidedDefinitions(p, block);
    },
  },
  heading: {
    continue: () => 1,
    finalize: (p, block) => finishLeaf(p, block.leaf!),
    mount(p, block, parent) {
      block.leaf = new InlineLeaf(p, mountElement(p, block, parent, `h${block.level}` as 'h1'));
      block.leaf.heading = true;
    },
    addText: addToLeaf,
  },
  thematic_break: {
    continue: () => 1,
    mount: (p, block, parent) => void mountElement(p, block, parent, 'hr'),
  },
  code_block: {
    continue(p, block) {
      const line = p.currentLine;
      if (block.fenced) {
        const match =
          p.indent <= 3 &&
          line.charAt(p.nextNonspace) === block.fenceChar &&
          RE_CLOSING_CODE_FENCE.exec(line.slice(p.nextNonspace));
        if (match && match[0].length >= block.fenceLength) {
          p.finalize(block, p.lineNumber);
          return 2;
        }
        let i = block.fenceOffset;
        while (i > 0 && isSpaceOrTab(line[p.offset])) {
          p.advanceOffset(1, true);
          i--;
        }
        return 0;
      }
      if (p.indent >= CODE_INDENT) p.advanceOffset(CODE_INDENT, true);
      else if (p.blank) p.advanceNextNonspace();
      else return 1;
      return 0;
    },
    finalize(p, block) {
      if (p.lineTarget === block && p.infoLine) {
        p.infoLine = false;
        block.code!.setInfo(unescapeString(p.lineContent.trim()));
      }
      block.code!.finish();
      block.heldBlanks = [];
    },
    acceptsLines: true,
    mount(p, block, parent) {
      block.code = new CodeBlockView(p.cx, parent as Node, { copyLabel: p.options.copyLabel });
      block.el = block.code.element;
    },
    lineStarted(p, block, text) {
      if (!block.fenced && p.blank) {
        // Blank lines belong to an indented code block only if code follows them.
        block.heldBlanks.push(text);
        return false;
      }
      if (block.infoPending) {
        block.infoPending = false;
        p.infoLine = true;
      } else if (!block.fenced) {
        flushHeldBlanks(block);
      }
      return true;
    },
    addText(p, block, text) {
      if (p.infoLine) p.lineContent += text;
      else block.code!.append(text);
    },
    lineEnded(p, block, content) {
      if (p.infoLine) {
        p.infoLine = false;
        block.code!.setInfo(unescapeString(content.trim()));
      } else {
        block.code!.endLine();
      }
    },
  },
  html_block: {
    continue: (p, block) => (p.blank && (block.htmlBlockType === 6 || block.htmlBlockType === 7) ? 1 : 0),
    acceptsLines: true,
    mount(p, block, parent) {
      // Raw HTML is shown as the text it is.
      setAttribute(p.cx, mountElement(p, block, parent, 'pre'), 'part', 'raw-html');
    },
    addText(p, block, text) {
      p.lineContent += text;
      if (block.newlinesOwed > 0) {
        appendText(p.cx, block.el!, '\n'.repeat(block.newlinesOwed));
        block.newlinesOwed = 0;
      }
      appendText(p.cx, block.el!, text);
    },
    lineEnded(p, block, content) {
      block.newlinesOwed += 1;
      if (block.htmlBlockType >= 1 && block.htmlBlockType <= 5 && RE_HTML_BLOCK_CLOSE[block.htmlBlockType]!.test(content)) {
        p.finalize(block, p.lineNumber);
      }
    },
  },
  table: {
    // A GFM table ends at a blank line or a line with no cell; a line starting another block ends it too
    // (that block cannot be its child).
    continue: (p) => (p.blank || splitRow(p.rest()) === null ? 1 : 0),
    finalize(p, block) {
      if (p.lineTarget === block) {
        block.table!.row(p.lineContent, true);
      }
    },
    // Mounted from the paragraph it turns (see the table start).
    addText(p, _block, text) {
      p.lineContent += text;
    },
    lineEnded: (_p, block, content) => block.table!.row(content, true),
  },
};
