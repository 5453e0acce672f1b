/**
 * A Lit directive that renders a growing {@link TextBlock} into its element incrementally: each update
 * hands only the chunks added since the last one to an {@link AnswerRenderer}. Text that fits in the
 * current task's budget (a streamed delta) is drawn at once. Text that does not (a stored answer of
 * megabytes, a burst), or that goes past `limit`, goes to a {@link TextFeed} (a chunk loaded on first
 * use), which draws it a slice per task up to the limit. Later text goes behind it, so it stays in order,
 * until the feed has drawn all it held: then text that fits is drawn at once again, and the end of a
 * stream is drawn in the render it arrives in, not a slice later. Characters drawn at once and by the
 * feed count together against `limit`.
 */
import { nothing } from 'lit';
import { AsyncDirective } from 'lit/async-directive.js';
import { PartType, directive, type ElementPart, type PartInfo } from 'lit/directive.js';
import type { AnswerRenderer } from './answer.js';
import { lazyChunk } from '../lazy-chunk.js';
import type { SliceScheduler } from '../slices/scheduler.js';
import type { TextFeed } from '../slices/text-feed.js';
import { taskBudget } from '../task-budget.js';
import type { TextBlock } from '../timeline/items.js';

/** Makes the renderer for a target element; `signal` aborts its deferred work (the answer was replaced). */
export type RendererFactory = (target: HTMLElement, signal: AbortSignal) => AnswerRenderer;

/** Options of {@link streamText}. */
export interface StreamTextOptions {
  /** Characters drawn at most (the rest waits until the limit is raised). @defaultValue no limit */
  limit?: number;
  /** The slice queue (tests). @defaultValue the page's */
  scheduler?: SliceScheduler;
}

type Args = [TextBlock, boolean, RendererFactory, StreamTextOptions?];

const loadFeed = lazyChunk(() => import('../slices/text-feed.js'));

class StreamTextDirective extends AsyncDirective {
  private chunks: string[] | undefined;
  private consumed = 0;
  private element!: HTMLElement;
  private args!: Args;
  private renderer!: AnswerRenderer;
  private controller: AbortController | undefined;
  /** Text waiting while the feed's chunk loads; then the feed, which takes later text until it is drained. */
  private waiting: string[] | undefined;
  private feed: TextFeed | undefined;
  /** Characters drawn at once (not by the feed): the feed draws no more than what is left of `limit`. */
  private drawnNow = 0;
  private ended = false;

  constructor(info: PartInfo) {
    super(info);
    if (info.type !== PartType.ELEMENT) throw new Error('streamText() must be used as an element binding');
  }

  render(..._args: Args): typeof nothing {
    return nothing;
  }

  override update(part: ElementPart, args: Args): typeof nothing {
    this.element = part.element as HTMLElement;
    this.args = args;
    this.draw();
    return nothing;
  }

  private draw(): void {
    const [block, streaming, factory, { limit = Infinity, scheduler } = {}] = this.args;
    if (block.chunks !== this.chunks || !this.controller) {
      // another answer in this place: what the last one still had waiting is dropped
      this.controller?.abort();
      this.controller = new AbortController();
      this.element.removeAttribute('aria-busy');
      this.chunks = block.chunks;
      this.consumed = this.drawnNow = 0;
      this.waiting = this.feed = undefined;
      this.ended = false;
      this.renderer = factory(this.element, this.controller.signal);
    }
    const { chunks } = block;
    // Everything that arrived since the last render goes to the renderer as one piece: the markdown
    // renderer's output does not depend on how the text is cut, and its work per append is one parse of
    // the open tail, so one append per frame is the cheapest.
    if (this.consumed < chunks.length) {
      const text = this.consumed === chunks.length - 1 ? chunks[this.consumed]! : chunks.slice(this.consumed).join('');
      this.consumed = chunks.length;
      if (!this.queued && block.length <= limit && (scheduler?.budget ?? taskBudget).tryNow(text.length)) {
        this.drawnNow += text.length;
        this.renderer.append(text);
      } else if (this.waiting) {
        this.waiting.push(text);
      } else if (this.feed) {
        this.feed.push(text);
      } else {
        this.waiting = [text];
        this.element.setAttribute('aria-busy', 'true');
        void this.startFeed(scheduler);
      }
    }
    this.feed?.setLimit(limit - this.drawnNow);
    if (!streaming && !this.ended) {
      this.ended = true;
      if (this.feed && !this.feed.drained) this.feed.end();
      else if (!this.waiting) this.renderer.end();
    }
  }

  /** Whether text (or the end) waits to be drawn: later text goes behind it. */
  private get queued(): boolean {
    return this.waiting !== undefined || this.feed?.drained === false;
  }

  /** Loads the feed and hands it what waits (or, if its chunk cannot be fetched, draws that at once). */
  private async startFeed(scheduler: SliceScheduler | undefined): Promise<void> {
    const controller = this.controller!;
    const m = await loadFeed();
    if (this.controller !== controller || controller.signal.aborted) return;
    const waiting = this.waiting!;
    this.waiting = undefined;
    if (m) {
      const feed = (this.feed = new m.TextFeed(this.renderer, this.element, controller.signal, scheduler));
      feed.setLimit((this.args[3]?.limit ?? Infinity) - this.drawnNow);
      for (const text of waiting) feed.push(text);
      if (this.ended) feed.end();
      return;
    }
    this.element.removeAttribute('aria-busy');
    for (const text of waiting) {
      this.drawnNow += text.length;
      this.renderer.append(text);
    }
    if (this.ended) this.renderer.end();
  }

  // A row off the page past this task (its conversation closed, the element removed) stops drawing; a
  // move (out and back at once) does not. Put back later, it draws again from the start.
  protected override disconnected(): void {
    setTimeout(() => {
      if (!this.isConnected) this.controller?.abort();
    });
  }

  protected override reconnected(): void {
    if (!this.controller?.signal.aborted) return;
    this.controller = undefined;
    this.draw();
  }
}

/**
 * Element binding: `<div ${streamText(block, streaming, factory, { limit })}></div>`. The renderer
 * draws only into that element.
 */
export const streamText = directive(StreamTextDirective);
