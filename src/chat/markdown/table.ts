/**
 * GFM tables (the `table` extension of cmark-gfm): the delimiter row, splitting a line into cells, and the
 * table's DOM. A row is one line: complete rows are rendered once. The row still streaming is shown (and
 * re-rendered on each update) while the table has at most {@link LIVE_ROWS} rows; in a longer table a row
 * appears when its line ends, because the browser lays out a whole table on any change to it.
 */
import { appendNode, createElement, renderInlines, setAttribute, type DomContext } from './inline-dom.js';
import { parseInlines, type InlineContext } from './inlines.js';

export type Alignment = 'left' | 'center' | 'right' | '';

/** Up to this many body rows, the row still streaming is shown as it arrives. */
export const LIVE_ROWS = 50;

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

  constructor(
    private readonly cx: DomContext,
    parent: Node,
    header: string[],
    private readonly align: Alignment[],
    /** The inline context for a row (its missing labels re-render it). */
    private readonly context: (row: Rerenderable) => InlineContext,
  ) {
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
    this.body ??= appendNode(cx, this.element, createElement(cx, 'tbody'));
    const tr = this.renderRow(this.body, splitRow(line) ?? [''], 'td');
    if (final) this.rows += 1;
    else this.pending = tr;
  }

  private renderRow(section: HTMLTableSectionElement, cells: string[], tag: 'th' | 'td'): HTMLTableRowElement {
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
      }
      if (current) current.replaceWith(tr);
      else appendNode(cx, section, tr);
      current = tr;
    };
    const row: Rerenderable = { rerender: build };
    build();
    return current!;
  }
}
