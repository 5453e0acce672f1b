/**
 * A node of the block tree: its type, its place among its siblings, and the state the block types keep
 * while it is open (see `block-types.ts` for what each type does with it).
 */
import type { CodeBlockView } from './code-block.js';
import type { InlineLeaf } from './leaf.js';
import type { TableView } from './table.js';

/** The block types: CommonMark's, plus GFM tables. */
export type BlockType =
  | 'document' | 'block_quote' | 'list' | 'item' | 'paragraph' | 'heading'
  | 'thematic_break' | 'code_block' | 'html_block' | 'table';

/** A list's (and each of its items') marker and layout. */
export interface ListData {
  type: 'bullet' | 'ordered';
  tight: boolean;
  bulletChar: string;
  start: number;
  delimiter: string;
  padding: number;
  markerOffset: number;
}

/** One block: a node of the block tree, with its element once mounted. */
export class Block {
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
  /** Item: it starts with a task checkbox. */
  task = false;
  leaf: InlineLeaf | null = null;
  code: CodeBlockView | null = null;
  table: TableView | null = null;
  /** Indented code: blank lines held until a non-blank line shows they are inside the block. */
  heldBlanks: string[] = [];
  /** HTML block: line ends owed before the next content (the last one is not content). */
  newlinesOwed = 0;
  /** Nesting depth of block quotes, lists and items. */
  depth = 0;
  /** Document and lists: children mounted so far, and the group new ones go in (see `block-groups.ts`). */
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

  /** Puts `block` where this block is among its siblings (a paragraph became a heading or a table). */
  replaceWith(block: Block): void {
    const parent = this.parent!;
    block.parent = parent;
    block.prev = this.prev;
    block.next = this.next;
    if (this.prev) this.prev.next = block;
    else parent.first = block;
    if (this.next) this.next.prev = block;
    else parent.last = block;
  }
}
