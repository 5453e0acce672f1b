/**
 * What of a streamed Markdown answer is spoken, one finished sentence at a time: text fed as it arrives
 * ({@link SentenceReader.push}) comes out as sentences as soon as each is finished (a `.`, `!`, `?` or `…`
 * followed by a space, a CJK `。`, `！` or `？`, or the end of a paragraph, heading or list item). Code
 * blocks, URLs, images, HTML tags and Markdown syntax are not spoken; a link's text is. Each character is
 * looked at a bounded number of times: the cost of a push is the size of what it adds plus the line
 * still open.
 */

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
/** A line that may still turn into a fence once more of it arrives. */
const MAYBE_FENCE = /^ {0,3}(`{1,2}|~{1,2})$/;
const BLANK = /^\s*$/;
const HEADING = /^ {0,3}#{1,6}(\s|$)/;
const LIST_ITEM = /^\s*(?:[-*+]|\d{1,9}[.)])\s+/;
const RULE = /^ {0,3}([-*_])(\s*\1){2,}\s*$/;
const TABLE_DELIMITER = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;
/** A finished sentence ends here: Latin ends before a space, CJK ends anywhere (closing quotes kept). */
const SENTENCE_END = /[.!?…]+["'”’)\]]*(?=\s)|[。！？]+[」』”’）]*/g;

/** The spoken text of one line of Markdown outside code (its block markers, links, URLs and syntax removed). */
export function speakableLine(line: string): string {
  return line
    .replace(/^ {0,3}(?:>\s?)+/, '')
    .replace(/^ {0,3}#{1,6}\s+/, '')
    .replace(/\s#+\s*$/, '')
    .replace(LIST_ITEM, '')
    .replace(/^\[[ xX]\]\s+/, '')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\[[^\]]*\]/g, '$1')
    .replace(/<(?:https?:|mailto:)[^>]*>/gi, '')
    .replace(/\b(?:https?:\/\/|www\.)[^\s<>()]+/gi, '')
    .replace(/<\/?[a-zA-Z][^>]*>/g, '')
    .replace(/\|/g, ' ')
    .replace(/(\*{1,3}|_{2,3}|~~|`+)/g, '')
    .replace(/\s+/g, ' ')
    .trimStart();
}

/** True when a line still open has a link, image, tag or code span that more text could change. */
function unbalanced(line: string): boolean {
  const count = (c: string): number => line.split(c).length - 1;
  return count('[') !== count(']') || count('(') < count(')') || count('(') !== count(')') || count('`') % 2 === 1 || count('<') !== count('>');
}

/** Reads a streamed answer's spoken sentences; one per answer. */
export class SentenceReader {
  /** The part of the line still open (no newline yet). */
  private open = '';
  /** The fence that opened the code block the reader is in. */
  private fence: string | undefined;
  /** Spoken text of the paragraph's finished lines not yet given out. */
  private pending = '';
  /** How much of the open line's spoken text was already given out (a sentence that ended in it). */
  private taken = 0;
  /** The previous line was blank (an indented line after one is code). */
  private afterBlank = true;

  /** Feeds more of the answer; returns the sentences it finished. */
  push(text: string): string[] {
    const out: string[] = [];
    let from = 0;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', from)) {
      this.line(this.open + text.slice(from, nl), out);
      this.open = '';
      from = nl + 1;
    }
    this.open += text.slice(from);
    this.peek(out);
    return out;
  }

  /** The answer is complete: returns what remains (the last sentence, even without its end mark). */
  end(): string[] {
    const out: string[] = [];
    if (this.open !== '') this.line(this.open, out);
    this.open = '';
    this.flush(out);
    return out;
  }

  private line(line: string, out: string[]): void {
    const taken = this.taken;
    this.taken = 0;
    const fence = FENCE.exec(line)?.[1];
    if (this.fence !== undefined) {
      if (fence && fence[0] === this.fence[0] && fence.length >= this.fence.length && BLANK.test(line.slice(line.indexOf(fence) + fence.length))) this.fence = undefined;
      return;
    }
    if (fence) {
      this.flush(out);
      this.fence = fence;
      return;
    }
    const blank = BLANK.test(line);
    const code = this.afterBlank && this.pending === '' && /^( {4}|\t)/.test(line);
    this.afterBlank = blank || (this.afterBlank && code);
    if (blank || code || RULE.test(line) || TABLE_DELIMITER.test(line)) {
      this.flush(out);
      return;
    }
    // a heading and a list item are sentences of their own
    const own = HEADING.test(line) || LIST_ITEM.test(line);
    if (own) this.flush(out);
    const spoken = speakableLine(line).slice(taken);
    this.pending = this.pending === '' ? spoken.trimStart() : `${this.pending} ${spoken}`;
    this.pending = this.pending.slice(this.sentencesOf(this.pending, out)).trimStart();
    if (own) this.flush(out);
  }

  /** Gives out the sentences finished within the line still open, keeping their place in it. */
  private peek(out: string[]): void {
    const line = this.open;
    if (this.fence !== undefined || line === '' || FENCE.test(line) || MAYBE_FENCE.test(line) || unbalanced(line)) return;
    if (this.afterBlank && this.pending === '' && /^( {4}|\t)/.test(line)) return;
    if (HEADING.test(line) || LIST_ITEM.test(line)) return;
    const rest = speakableLine(line).slice(this.taken);
    if (rest.trim() === '') return;
    if (this.pending === '') {
      this.taken += this.sentencesOf(rest, out);
      return;
    }
    const used = this.sentencesOf(`${this.pending} ${rest}`, out);
    if (used <= this.pending.length) this.pending = this.pending.slice(used).trimStart();
    else {
      this.taken += used - this.pending.length - 1;
      this.pending = '';
    }
  }

  /** Pushes the finished sentences at the start of `text`; returns how many characters they took. */
  private sentencesOf(text: string, out: string[]): number {
    let start = 0;
    SENTENCE_END.lastIndex = 0;
    for (let m = SENTENCE_END.exec(text); m; m = SENTENCE_END.exec(text)) {
      const end = m.index + m[0].length;
      const sentence = text.slice(start, end).trim();
      if (sentence !== '' && /[\p{L}\p{N}]/u.test(sentence)) out.push(sentence);
      start = end;
    }
    return start;
  }

  private flush(out: string[]): void {
    const rest = this.pending.trim();
    this.pending = '';
    if (rest !== '' && /[\p{L}\p{N}]/u.test(rest)) out.push(rest);
  }
}
