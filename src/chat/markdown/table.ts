/**
 * GFM tables (the `table` extension of cmark-gfm): the delimiter row, splitting a line into cells, and the
 * table's DOM. A row is one line: complete rows are rendered once. The row still streaming is shown (and
 * re-rendered on each update) while the table has at most {@link LIVE_ROWS} rows; in a longer table a row
 * appears when its line ends, because the browser lays out a whole table on any change to it.
 *
 * A table of more than {@link CHUNK_ROWS} body rows is drawn in chunks: its rows go in a `<tbody>` per
 * {@link CHUNK_ROWS}, and the stylesheet lays out its head and each body as a table of its own with fixed
 * column widths (`table-layout: fixed`), so a new row lays out only the last chunk; a table laid out as
 * one box costs time in its number of rows on every change. The widths are set on the first row of each
 * section, from the text of the head and the first {@link CHUNK_ROWS} rows (at most
 * {@link MAX_COLUMN_CHARS} characters): the same for every section, so columns line up from chunk to chunk. It stays
 * one `<table>` with one head: screen readers read it as before.
 */
import { appendNode, createElement, renderInlines, setAttribute, type DomContext } from './inline-dom.js';
import { parseInlines, type InlineContext } from './inlines.js';

export type Alignment = 'left' | 'center' | 'right' | '';

/** Up to this many body rows, the row still streaming is shown as it arrives. */
export const LIVE_ROWS = 50;
/** Body rows per chunk of a long table, and the most rows a table has before it is chunked. */
export const CHUNK_ROWS = 100;
/** The most characters a column of a chunked table is set to hold on a line; longer text wraps. */
export const MAX_COLUMN_CHARS = 40;
/**
 * The width of a character, in tenths of an `em`: a little more than most fonts' average, so a cell as
 * long as the longest stays on one line. Not `ch`, which is the width of a `0` in the cell's own font: a
 * bold header's is wider than a body cell's, and the columns would not line up.
 */
const CHAR_TENTHS_EM = 6;
/** Characters that take two columns of text (East Asian wide and fullwidth forms, in the BMP). */
const WIDE = /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/g;

/** How many characters wide a cell's text is on one line: wide characters and surrogate pairs count two. */
function textColumns(text: string): number {
  return text.length + (text.match(WIDE)?.length ?? 0);
}

const DELIMITER_ROW = /^\|?[ \t\v\f]*:?-+:?[ \t\v\f]*(?:\|[ \t\v\f]*:?-+:?[ \t\v\f]*)*\|?[ \t\v\f]*$/;
const CELL = /(?:\\[!-/:-@[-`{-~]|[^|\r\n])+/y;
const CELL_END = /\|[ \t\v\f]*/y;

/** Whether `line` (from its first non-space character) is a delimiter row. */
export function isDelimiterRow(line: string): boolean {
  return DELIMITER_ROW.test(line);
}

/**
 * The cells of a table row (cmark-gfm's row_from_string on one line): escaped pipes stay in their cell
 * (as `|`), each cell trimmed; `null` when the line has no cell.
 */
export function splitRow(line: string): string[] | null {
  const cells: string[] = [];
  const at = (re: RegExp, i: number): number => {
    re.lastIndex = i;
    const m = re.exec(line);
    return m ? m[0].length : 0;
  };
  let offset = at(CELL_END, 0);
  while (offset < line.length) {
    const cell = at(CELL, offset);
    const pipe = at(CELL_END, offset + cell);
    if (cell || pipe) cells.push(line.slice(offset, offset + cell).replace(/\\\|/g, '|').trim());
    offset += cell + pipe;
    if (!pipe) {
      if (/^[ \t\v\f]*$/.test(line.slice(offset))) break;
      return null;
    }
  }
  return cells.length > 0 ? cells : null;
}

/** The column alignments of a delimiter row. */
export function alignments(delimiterRow: string): Alignment[] {
  return (splitRow(delimiterRow) ?? []).map((cell) => {
    const left = cell.startsWith(':');
    const right = cell.endsWith(':');
    return left && right ? 'center' : left ? 'left' : right ? 'right' : '';
  });
}

/** Something whose rendering depends on link definitions and can be rendered again. */
export interface Rerenderable {
  rerender(): void;
}

/** The DOM of one table. */
export class TableView {
  readonly element: HTMLTableElement;
  private body: HTMLTableSectionElement | null = null;
  private pending: HTMLTableRowElement | null = null;
  private rows = 0;
  /** The longest text of each column so far, in characters (until the table is chunked). */
  private readonly longest: number[];
  /** The column widths, once the table is chunked. */
  private widths: string[] | null = null;

  constructor(
    private readonly cx: DomContext,
    parent: Node,
    header: string[],
    private readonly align: Alignment[],
    /** The inline context for a row (its missing labels re-render it). */
    private readonly context: (row: Rerenderable) => InlineContext,
  ) {
    this.longest = align.map(() => 0);
    this.element = createElement(cx, 'table');
    const head = appendNode(cx, this.element, createElement(cx, 'thead'));
    this.renderRow(head, header, 'th');
    appendNode(cx, parent, this.element);
  }

  /** Renders a body row; `final` once its line has ended (else it is replaced by the next call). */
  row(line: string, final: boolean): void {
    const { cx } = this;
    if (this.pending) {
      this.pending.remove();
      cx.stats.nodesTouched += 1;
      this.pending = null;
    }
    if (!final && this.rows >= LIVE_ROWS) return;
    if (final && this.rows > 0 && this.rows % CHUNK_ROWS === 0) {
      if (!this.widths) this.setWidths();
      this.body = null;
    }
    this.body ??= appendNode(cx, this.element, createElement(cx, 'tbody'));
    const tr = this.renderRow(this.body, splitRow(line) ?? [''], 'td', final);
    if (final) this.rows += 1;
    else this.pending = tr;
  }

  /** Fixes the column widths from the text so far, on the first row of the head and of the body. */
  private setWidths(): void {
    setAttribute(this.cx, this.element, 'data-chunked', '');
    this.widths = this.longest.map((n) => `${(Math.min(n + 1, MAX_COLUMN_CHARS) * CHAR_TENTHS_EM) / 10}em`);
    for (const section of [this.element.tHead, this.element.tBodies[0]]) {
      const first = section?.rows[0];
      if (first) this.size(first);
    }
  }

  /** Sets the column widths on a section's first row. */
  private size(tr: HTMLTableRowElement): void {
    const { cx, widths } = this;
    if (!widths) return;
    let i = 0;
    for (const cell of tr.cells) {
      cell.style.width = widths[i++]!;
      cx.stats.nodesTouched += 1;
    }
  }

  private renderRow(section: HTMLTableSectionElement, cells: string[], tag: 'th' | 'td', final = true): HTMLTableRowElement {
    const { cx } = this;
    let current: HTMLTableRowElement | null = null;
    const build = (): void => {
      // A row replaced while it streamed is gone: a late definition has nothing to re-render there.
      if (current && !current.parentNode) return;
      const tr = createElement(cx, 'tr');
      const context = this.context(row);
      for (let i = 0; i < this.align.length; i++) {
        const cell = createElement(cx, tag);
        const align = this.align[i];
        if (align) setAttribute(cx, cell, 'align', align);
        const content = cells[i];
        if (content !== undefined && content !== '') {
          cx.stats.charsParsed += content.length;
          renderInlines(cx, parseInlines(content, '\n', context).root.first, null, cell);
        }
        appendNode(cx, tr, cell);
        // A row's first rendering: the same in the whole text and in any pieces of it (a later one
        // follows the link definitions that arrived since, whenever they are rendered again).
        if (final && !current && !this.widths) this.longest[i] = Math.max(this.longest[i]!, textColumns(cell.textContent!));
      }
      if (current) current.replaceWith(tr);
      else appendNode(cx, section, tr);
      if (tr === section.rows[0]) this.size(tr);
      current = tr;
    };
    const row: Rerenderable = { rerender: build };
    build();
    return current!;
  }
}
