/**
 * The position in the line being parsed, in characters and in columns (a tab advances to the next multiple
 * of 4, §2.2), and what lies at it: commonmark.js's parser fields for one line. A tab that only partly
 * counts as indentation is split: the rest of it stays as spaces.
 */

/** Columns of indentation that make indented code (§4.4). */
export const CODE_INDENT = 4;

/** A character other than whitespace. */
export const RE_NON_SPACE = /[^ \t\f\v\r\n]/;

/** Whether `c` is a space or a tab. */
export const isSpaceOrTab = (c: string | undefined): boolean => c === ' ' || c === '\t';

/** The position in the current line; the block parser extends it. */
export class LineCursor {
  /** The line being parsed. */
  currentLine = '';
  offset = 0;
  column = 0;
  nextNonspace = 0;
  nextNonspaceColumn = 0;
  /** Columns from the position to the next non-space character. */
  indent = 0;
  indented = false;
  /** Whether only spaces and tabs follow the position. */
  blank = false;
  partiallyConsumedTab = false;

  /** Starts on a new line, at its first character. */
  protected startLine(line: string): void {
    this.currentLine = line;
    this.offset = 0;
    this.column = 0;
    this.blank = false;
    this.partiallyConsumedTab = false;
  }

  /** The line from its next non-space character. */
  rest(): string {
    return this.currentLine.slice(this.nextNonspace);
  }

  /** Finds the next non-space character from the position, and the indentation before it. */
  findNextNonspace(): void {
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

  /** Advances by `count` characters, or by `count` columns (a tab may then be partly consumed). */
  advanceOffset(count: number, columns: boolean): void {
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

  /** Moves to the next non-space character (found by {@link findNextNonspace}). */
  advanceNextNonspace(): void {
    this.offset = this.nextNonspace;
    this.column = this.nextNonspaceColumn;
    this.partiallyConsumedTab = false;
  }

  /** Moves to the end of the line (all of it was a block's marker). */
  advanceToEnd(): void {
    this.advanceOffset(this.currentLine.length - this.offset, false);
  }

  /** Takes the rest of the line: a partly consumed tab gives its remaining columns as spaces. */
  protected takeRest(): string {
    let text = '';
    if (this.partiallyConsumedTab) {
      this.offset += 1;
      text = ' '.repeat(4 - (this.column % 4));
    }
    return text + this.currentLine.slice(this.offset);
  }
}
