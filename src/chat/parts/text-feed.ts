/**
 * Hands an answer's text to its renderer in slices: text that fits in the current task's budget (a
 * streamed delta) is appended at once; more (a stored answer of megabytes, a burst) waits in the page's
 * slice queue and is appended a slice per task, cut at a line end where one is near. The renderer's output
 * does not depend on how its text is cut, so the drawn answer ends the same as if it came in one piece.
 */
import type { AnswerRenderer } from '../answer.js';
import type { SliceGroup, SliceJob } from '../slice-scheduler.js';

/**
 * The most queued text given to the renderer in one append: a slice checks its budget (characters and
 * time) between appends, so it ends close to it.
 */
export const FEED_PIECE = 4 * 1024;

/** A cut within the last this-many characters of a slice looks for a line end first. */
const LINE_SEARCH = 4096;

/** Text waiting for an answer's renderer, fed a slice per task. */
export class TextFeed implements SliceJob {
  private readonly pieces: string[] = [];
  private head = 0;
  /** Characters waiting. */
  private size = 0;
  private ending = false;
  private ended = false;

  constructor(
    private readonly renderer: AnswerRenderer,
    readonly group: SliceGroup,
    /** Carries `aria-busy` while text waits. */
    private readonly target: HTMLElement,
  ) {}

  get pending(): boolean {
    return this.size > 0 || (this.ending && !this.ended);
  }

  /** Takes the next text: appended now when it fits in this task, else queued behind what waits. */
  push(text: string): void {
    if (text === '' || this.ending || this.group.cancelled) return;
    if (this.size === 0 && this.group.tryNow(text.length)) {
      this.renderer.append(text);
      return;
    }
    this.pieces.push(text);
    this.size += text.length;
    this.wait();
  }

  /** The text is complete: the renderer ends once what waits has been appended. */
  end(): void {
    if (this.ending || this.group.cancelled) return;
    this.ending = true;
    if (this.size === 0) this.finish();
    else this.wait();
  }

  /** Drops what waits, for good (another answer replaced this one). */
  cancel(): void {
    this.group.cancel();
    this.pieces.length = this.head = this.size = 0;
    this.target.removeAttribute('aria-busy');
  }

  run(): void {
    while (this.size > 0 && this.group.left > 0) {
      const text = this.take(Math.min(FEED_PIECE, this.group.left));
      this.group.spend(text.length);
      this.renderer.append(text);
    }
    if (this.size === 0 && this.ending && !this.ended) this.finish();
  }

  private wait(): void {
    this.target.setAttribute('aria-busy', 'true');
    this.group.add(this);
  }

  private finish(): void {
    this.ended = true;
    this.target.removeAttribute('aria-busy');
    this.renderer.end();
  }

  /**
   * Removes and returns the next `max` characters or fewer: whole pieces while they fit, else the start
   * of the first piece, cut after a line end when one is near.
   */
  private take(max: number): string {
    const first = this.pieces[this.head]!;
    let text: string;
    if (first.length > max) {
      let cut = first.lastIndexOf('\n', max - 1) + 1;
      if (cut === 0 || max - cut > LINE_SEARCH) {
        cut = max;
        // never between the halves of a surrogate pair
        const c = first.charCodeAt(cut - 1);
        if (c >= 0xd800 && c <= 0xdbff) cut += cut > 1 ? -1 : 1;
      }
      text = first.slice(0, cut);
      this.pieces[this.head] = first.slice(cut);
    } else {
      const parts: string[] = [];
      let n = 0;
      while (this.head < this.pieces.length && n + this.pieces[this.head]!.length <= max) {
        const piece = this.pieces[this.head]!;
        this.pieces[this.head++] = '';
        parts.push(piece);
        n += piece.length;
      }
      text = parts.length === 1 ? parts[0]! : parts.join('');
      if (this.head === this.pieces.length) this.pieces.length = this.head = 0;
    }
    this.size -= text.length;
    return text;
  }
}
