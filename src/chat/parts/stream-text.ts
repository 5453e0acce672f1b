/**
 * A Lit directive that renders a growing {@link TextBlock} into its element incrementally: each
 * update hands only the chunks added since the last one to an {@link AnswerRenderer}, through a
 * {@link TextFeed} that slices what is too big for one task (a stored answer of megabytes).
 */
import { nothing } from 'lit';
import { AsyncDirective } from 'lit/async-directive.js';
import { PartType, directive, type ElementPart, type PartInfo } from 'lit/directive.js';
import type { AnswerRenderer } from '../answer.js';
import { sliceScheduler, type SliceGroup, type SliceScheduler } from '../slice-scheduler.js';
import type { TextBlock } from '../timeline.js';
import { TextFeed } from './text-feed.js';

/** Makes the renderer for a target element; `slices` is the group its own deferred work (highlighting) runs in. */
export type RendererFactory = (target: HTMLElement, slices: SliceGroup) => AnswerRenderer;

class StreamTextDirective extends AsyncDirective {
  private chunks: string[] | undefined;
  private consumed = 0;
  private feed: TextFeed | undefined;
  private ended = false;

  constructor(info: PartInfo) {
    super(info);
    if (info.type !== PartType.ELEMENT) throw new Error('streamText() must be used as an element binding');
  }

  render(_block: TextBlock, _streaming: boolean, _factory: RendererFactory, _scheduler?: SliceScheduler): typeof nothing {
    return nothing;
  }

  override update(
    part: ElementPart,
    [block, streaming, factory, scheduler = sliceScheduler]: [TextBlock, boolean, RendererFactory, SliceScheduler?],
  ): typeof nothing {
    if (block.chunks !== this.chunks || !this.feed) {
      // another answer in this place (a conversation switched): what the last one still had queued is dropped
      this.feed?.cancel();
      this.chunks = block.chunks;
      this.consumed = 0;
      this.ended = false;
      const target = part.element as HTMLElement;
      const group = scheduler.group();
      if (!this.isConnected) group.pause();
      this.feed = new TextFeed(factory(target, group), group, target);
    }
    const { chunks } = block;
    // Everything that arrived since the last render goes to the renderer as one piece: the markdown
    // renderer's output does not depend on how the text is cut, and its work per append is one parse of
    // the open tail, so one append per frame is the cheapest.
    if (this.consumed < chunks.length) {
      const text = this.consumed === chunks.length - 1 ? chunks[this.consumed]! : chunks.slice(this.consumed).join('');
      this.consumed = chunks.length;
      this.feed.push(text);
    }
    if (!streaming && !this.ended) {
      this.ended = true;
      this.feed.end();
    }
    return nothing;
  }

  // A row off the page (its conversation closed, the element removed) draws nothing more until it is back.
  protected override disconnected(): void {
    this.feed?.group.pause();
  }

  protected override reconnected(): void {
    this.feed?.group.resume();
  }
}

/** Element binding: `<div ${streamText(block, streaming, factory)}></div>` (a scheduler of its own for tests). */
export const streamText = directive(StreamTextDirective);
