/**
 * The block starts, in CommonMark's order of precedence, as an array of small functions (commonmark.js's
 * `blockStarts`), GFM task list items and tables among them. Each looks at the current line from its next
 * non-space character and returns 0 when it does not start there, 1 when it opened a container (the line
 * goes on to the starts again), 2 when it opened a leaf (the rest of the line is its content).
 */
import { Block, type ListData } from './block.js';
import { appendNode, appendText, createElement, setAttribute } from './inline-dom.js';
import { parseReferences } from './inlines.js';
import { CODE_INDENT, isSpaceOrTab, RE_NON_SPACE } from './line-cursor.js';
import type { MarkdownDocument } from './markdown-document.js';
import { CLOSE_TAG, OPEN_TAG } from './syntax.js';
import { alignments, isDelimiterRow, splitRow, TableView } from './table.js';

/** A block start: 0 none, 1 a container opened, 2 a leaf opened. */
export type BlockStart = (p: MarkdownDocument, container: Block) => 0 | 1 | 2;

/** Block quotes, lists and items nest at most this deep (deeper markers are text): bounded DOM depth. */
export const MAX_NESTING = 32;

/** A line whose rest (not indented) does not start with one of these starts no block. */
export const RE_MAYBE_SPECIAL = /^[#`~*+_=<>0-9|:[-]/;

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
const RE_THEMATIC_BREAK = /^(?:\*[ \t]*){3,}$|^(?:_[ \t]*){3,}$|^(?:-[ \t]*){3,}$/;
const RE_BULLET_LIST_MARKER = /^[*+-]/;
const RE_ORDERED_LIST_MARKER = /^(\d{1,9})([.)])/;
const RE_ATX_HEADING_MARKER = /^#{1,6}(?:[ \t]+|$)/;
const RE_CODE_FENCE = /^`{3,}(?!.*`)|^~{3,}/;
const RE_SETEXT_HEADING_LINE = /^(?:=+|-+)[ \t]*$/;
const RE_TASK_MARKER = /^\[[ xX]\][ \t]/;

const blockQuote: BlockStart = (p, container) => {
  if (p.indented || p.currentLine.charAt(p.nextNonspace) !== '>' || container.depth >= MAX_NESTING) return 0;
  p.advanceNextNonspace();
  p.advanceOffset(1, false);
  if (isSpaceOrTab(p.currentLine[p.offset])) p.advanceOffset(1, true);
  p.closeUnmatchedBlocks();
  p.mount(p.addChild('block_quote'));
  return 1;
};

const atxHeading: BlockStart = (p) => {
  const match = p.indented ? null : RE_ATX_HEADING_MARKER.exec(p.rest());
  if (!match) return 0;
  p.advanceNextNonspace();
  p.advanceOffset(match[0].length, false);
  p.closeUnmatchedBlocks();
  const heading = p.addChild('heading');
  heading.level = match[0].trim().length;
  p.mount(heading);
  heading.leaf!.append(p.currentLine.slice(p.offset));
  p.lineTarget = heading;
  p.offset = p.currentLine.length;
  return 2;
};

const fencedCode: BlockStart = (p) => {
  const match = p.indented ? null : RE_CODE_FENCE.exec(p.rest());
  if (!match) return 0;
  const fenceLength = match[0].length;
  p.closeUnmatchedBlocks();
  const block = p.addChild('code_block');
  block.fenced = true;
  block.fenceLength = fenceLength;
  block.fenceChar = match[0][0]!;
  block.fenceOffset = p.indent;
  block.infoPending = true;
  p.mount(block);
  p.advanceNextNonspace();
  p.advanceOffset(fenceLength, false);
  return 2;
};

const htmlBlock: BlockStart = (p, container) => {
  if (p.indented || p.currentLine.charAt(p.nextNonspace) !== '<') return 0;
  const s = p.rest();
  for (let type = 1; type <= 7; type++) {
    if (
      RE_HTML_BLOCK_OPEN[type]!.test(s) &&
      // Type 7 cannot interrupt a paragraph (§4.6), nor be a lazy continuation line of one.
      (type < 7 || (container.type !== 'paragraph' && !(!p.allClosed && !p.blank && p.tip.type === 'paragraph')))
    ) {
      p.closeUnmatchedBlocks();
      const block = p.addChild('html_block');
      block.htmlBlockType = type;
      p.mount(block);
      return 2;
    }
  }
  return 0;
};

const setextHeading: BlockStart = (p, container) => {
  const match = p.indented || container.type !== 'paragraph' ? null : RE_SETEXT_HEADING_LINE.exec(p.rest());
  if (!match) return 0;
  p.closeUnmatchedBlocks();
  const leaf = container.leaf!;
  let content = leaf.content();
  const consumed = parseReferences(content, p.refs.define);
  if (consumed > 0) content = content.slice(consumed);
  if (content.length > 0) {
    toHeading(p, container, match[0][0] === '=' ? 1 : 2, consumed > 0 ? content : null);
    p.advanceToEnd();
    return 2;
  }
  // Only definitions: no heading, and the underline is read as another block or text.
  if (consumed > 0) leaf.rerender('');
  return 0;
};

const thematicBreak: BlockStart = (p) => {
  if (p.indented || !RE_THEMATIC_BREAK.test(p.rest())) return 0;
  p.closeUnmatchedBlocks();
  p.mount(p.addChild('thematic_break'));
  p.advanceToEnd();
  return 2;
};

const listItem: BlockStart = (p, container) => {
  let data: ListData | null;
  if ((p.indented && container.type !== 'list') || container.depth >= MAX_NESTING - 1 || !(data = parseListMarker(p, container))) return 0;
  p.closeUnmatchedBlocks();
  if (p.tip.type !== 'list' || !listsMatch(container.listData!, data)) {
    const list = p.addChild('list');
    list.listData = data;
    p.mount(list);
  }
  const item = p.addChild('item');
  item.listData = data;
  p.mount(item);
  return 1;
};

/** GFM task list item: `[ ]`, `[x]` or `[X]` and a space at the start of an item's first line. */
const taskItem: BlockStart = (p, container) => {
  if (
    p.indented ||
    container.type !== 'item' ||
    container.startLine !== p.lineNumber ||
    container.first !== null ||
    container.task ||
    !RE_TASK_MARKER.test(p.rest())
  ) {
    return 0;
  }
  const { cx } = p;
  container.task = true;
  p.advanceNextNonspace();
  const box = createElement(cx, 'input');
  setAttribute(cx, box, 'type', 'checkbox');
  setAttribute(cx, box, 'disabled', '');
  setAttribute(cx, box, 'aria-label', p.options.taskLabel);
  if (p.currentLine[p.offset + 1] !== ' ') setAttribute(cx, box, 'checked', '');
  appendNode(cx, container.el!, box);
  appendText(cx, container.el!, ' ');
  p.advanceOffset(3, false);
  return 1;
};

const indentedCode: BlockStart = (p) => {
  if (!p.indented || p.tip.type === 'paragraph' || p.blank) return 0;
  p.advanceOffset(CODE_INDENT, true);
  p.closeUnmatchedBlocks();
  p.mount(p.addChild('code_block'));
  return 2;
};

/** GFM table: a delimiter row under a paragraph whose last line has as many cells. */
const table: BlockStart = (p, container) => {
  if (p.indented || container.type !== 'paragraph' || !isDelimiterRow(p.rest())) return 0;
  const content = container.leaf!.content().replace(/\n$/, '');
  const lineStart = content.lastIndexOf('\n') + 1;
  const header = splitRow(content.slice(lineStart));
  const align = alignments(p.rest());
  if (!header || header.length !== align.length) return 0;
  p.closeUnmatchedBlocks();
  toTable(p, container, lineStart > 0 ? content.slice(0, lineStart) : null, header, align);
  p.advanceToEnd();
  return 2;
};

/** The block starts, tried in this order. */
export const BLOCK_STARTS: readonly BlockStart[] = [
  blockQuote,
  atxHeading,
  fencedCode,
  htmlBlock,
  setextHeading,
  thematicBreak,
  listItem,
  taskItem,
  indentedCode,
  table,
];

function parseListMarker(p: MarkdownDocument, container: Block): ListData | null {
  const line = p.currentLine;
  const rest = line.slice(p.nextNonspace);
  if (p.indent >= 4) return null;
  let match: RegExpExecArray | null;
  const data: ListData = { type: 'bullet', tight: true, bulletChar: '', start: 1, delimiter: '', padding: 0, markerOffset: p.indent };
  if ((match = RE_BULLET_LIST_MARKER.exec(rest))) {
    data.bulletChar = match[0][0]!;
  } else if ((match = RE_ORDERED_LIST_MARKER.exec(rest)) && (container.type !== 'paragraph' || match[1] === '1')) {
    data.type = 'ordered';
    data.start = Number.parseInt(match[1]!, 10);
    data.delimiter = match[2]!;
  } else {
    return null;
  }
  const nextc = line.charAt(p.nextNonspace + match[0].length);
  if (!(nextc === '' || nextc === '\t' || nextc === ' ')) return null;
  if (container.type === 'paragraph' && !RE_NON_SPACE.test(line.slice(p.nextNonspace + match[0].length))) return null;
  p.advanceNextNonspace();
  p.advanceOffset(match[0].length, true);
  const spacesStartCol = p.column;
  const spacesStartOffset = p.offset;
  do {
    p.advanceOffset(1, true);
  } while (p.column - spacesStartCol < 5 && isSpaceOrTab(line[p.offset]));
  const blankItem = line[p.offset] === undefined;
  const spacesAfterMarker = p.column - spacesStartCol;
  if (spacesAfterMarker >= 5 || spacesAfterMarker < 1 || blankItem) {
    data.padding = match[0].length + 1;
    p.column = spacesStartCol;
    p.offset = spacesStartOffset;
    if (isSpaceOrTab(line[p.offset])) p.advanceOffset(1, true);
  } else {
    data.padding = match[0].length + spacesAfterMarker;
  }
  return data;
}

function listsMatch(list: ListData, item: ListData): boolean {
  return list.type === item.type && list.delimiter === item.delimiter && list.bulletChar === item.bulletChar;
}

/** A setext underline: the paragraph becomes a heading (its inline DOM moves into the new element). */
function toHeading(p: MarkdownDocument, paragraph: Block, level: number, content: string | null): void {
  const { cx } = p;
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
  paragraph.replaceWith(heading);
  if (content !== null) leaf.rerender(content);
  p.tip = heading;
}

/** A delimiter row: the paragraph's last line becomes the header of a table (earlier lines stay a paragraph). */
function toTable(p: MarkdownDocument, paragraph: Block, before: string | null, header: string[], align: ReturnType<typeof alignments>): void {
  const { cx } = p;
  const leaf = paragraph.leaf!;
  const table = new Block('table', p.lineNumber - 1);
  table.depth = paragraph.depth;
  if (before !== null) {
    leaf.rerender(before);
    p.finalize(paragraph, p.lineNumber - 2);
    paragraph.parent!.append(table);
  } else {
    leaf.rerender('');
    paragraph.el?.remove();
    cx.stats.nodesTouched += 1;
    paragraph.replaceWith(table);
  }
  table.table = new TableView(cx, p.placeIn(table.parent!) as Node, header, align, (row) => p.refs.contextFor(row));
  table.el = table.table.element;
  p.tip = table;
}
