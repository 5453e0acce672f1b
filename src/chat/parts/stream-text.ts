/**
 * A Lit directive that renders a growing {@link TextBlock} into its element incrementally: each
 * update appends only the chunks added since the last one, through an {@link AnswerRenderer}.
 */
import { nothing } from 'lit';
import { Directive, PartType, directive, type ElementPart, type PartInfo } from 'lit/directive.js';
import type { AnswerRenderer } from '../answer.js';
import type { TextBlock } from '../timeline.js';

/** Makes the renderer for a target element. */
export type RendererFactory = (target: HTMLElement) => AnswerRenderer;

class StreamTextDirective extends Directive {
  private chunks: string[] | undefined;
  private consumed = 0;
  private renderer: AnswerRenderer | undefined;
  private ended = false;

  constructor(info: PartInfo) {
    super(info);
    if (info.type !== PartType.ELEMENT) throw new Error('streamText() must be used as an element binding');
  }

  render(_block: TextBlock, _streaming: boolean, _factory: RendererFactory): typeof nothing {
    return nothing;
  }

  override update(part: ElementPart, [block, streaming, factory]: [TextBlock, boolean, RendererFactory]): typeof nothing {
    if (block.chunks !== this.chunks || !this.renderer) {
      this.chunks = block.chunks;
      this.consumed = 0;
      this.ended = false;
      this.renderer = factory(part.element as HTMLElement);
    }
    const { chunks } = block;
    // Everything that arrived since the last render goes to the renderer as one piece: the markdown
    // renderer's output does not depend on how the text is cut, and its work per append is one parse of
    // the open tail, so one append per frame is the cheapest.
    if (this.consumed < chunks.length) {
      const text = this.consumed === chunks.length - 1 ? chunks[this.consumed]! : chunks.slice(this.consumed).join('');
      this.consumed = chunks.length;
      this.renderer.append(text);
    }
    if (!streaming && !this.ended) {
      this.ended = true;
      this.renderer.end();
    }
    return nothing;
  }
}

/** Element binding: `<div ${streamText(block, streaming, factory)}></div>`. */
export const streamText = directive(StreamTextDirective);
