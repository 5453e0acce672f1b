/**
 * Draws an answer's text that did not fit in its task (a stored answer of megabytes, a burst), a slice
 * per task, cut at a line end where one is near, and no further than a limit (the rest waits until the
 * reader asks for more). The renderer's output does not depend on how its text is cut, so the answer ends
 * drawn exactly as if it had come in one piece.
 */
import type { AnswerRenderer } from '../messages/answer.js';
import { sliceScheduler, type SliceJob, type SliceScheduler } from './scheduler.js';

/**
 * The most waiting text given to the renderer in one append: a slice checks its budget (characters and
 * time) between appends, so it ends close to it.
 */
export const FEED_PIECE = 4 * 1024;

/** A slice's cut looks for a line end within this many characters before it. */
const LINE_SEARCH = 4096;

/** Text waiting for an answer's renderer; see the module comment. */
export class TextFeed implements SliceJob {
  private readonly pieces: string[] = [];
  private head = 0;
  /** Characters waiting. */
  private size = 0;
  /** Characters handed to the renderer. */
  private drawn = 0;
  private limit = Infinity;
  private ending = false;
  private ended = false;

  constructor(
    private readonly renderer: AnswerRenderer,
    /** Carries `aria-busy` while text waits for its slices. */
    private readonly target: HTMLElement,
    /** Aborted when the answer is replaced or leaves the page: what waits is dropped. */
    private readonly signal: AbortSignal,
    private readonly scheduler: SliceScheduler = sliceScheduler,
  ) {}

  /** Whether there is something to draw now (text under the limit, or the end). */
  get pending(): boolean {
    if (this.signal.aborted) return false;
    return this.size > 0 ? this.drawn < this.limit : this.ending && !this.ended;
  }

  /**
   * Whether it has drawn all it was given and has no end to draw: text drawn elsewhere now does not
   * overtake any of it. Text past the limit still waits, so a feed holding it is not drained.
   */
  get drained(): boolean {
    return this.size === 0 && this.ending === this.ended;
  }

  /** Queues `text` behind what waits. */
  push(text: string): void {
    if (text === '' || this.ending) return;
    this.pieces.push(text);
    this.size += text.length;
    this.wake();
  }

  /** The text is complete: the renderer ends once all of it has been drawn. */
  end(): void {
    this.ending = true;
    this.wake();
  }

  /** Draws up to `limit` characters in all (of the text given to it). */
  setLimit(limit: number): void {
    if (limit === this.limit) return;
    this.limit = limit;
    this.wake();
  }

  run(): void {
    while (this.size > 0 && this.drawn < this.limit && this.scheduler.left > 0 && !this.signal.aborted) {
      const room = this.limit - this.drawn;
      const max = Math.min(FEED_PIECE, this.scheduler.left);
      const text = room <= max ? this.take(room, false) : this.take(max, true);
      this.scheduler.spend(text.length);
      this.drawn += text.length;
      this.renderer.append(text);
    }
    if (this.size === 0 && this.ending && !this.ended && !this.signal.aborted) {
      this.ended = true;
      this.renderer.end();
    }
    if (!this.pending) this.target.removeAttribute('aria-busy');
  }

  /** Queues the feed for its slices when it has something to draw; says whether it does. */
  private wake(): void {
    if (this.pending) {
      this.target.setAttribute('aria-busy', 'true');
      this.scheduler.enqueue(this, this.signal);
    } else {
      this.target.removeAttribute('aria-busy');
    }
  }

  /**
   * Removes and returns the next `max` characters or fewer: whole pieces while they fit, else the start
   * of the first piece (cut after a line end when one is near and `atLine`; never inside a surrogate pair).
   */
  private take(max: number, atLine: boolean): string {
    const first = this.pieces[this.head]!;
    let text: string;
    if (first.length > max) {
      let cut = atLine ? first.lastIndexOf('\n', max - 1) + 1 : 0;
      if (cut === 0 || max - cut > LINE_SEARCH) {
        cut = max;
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
