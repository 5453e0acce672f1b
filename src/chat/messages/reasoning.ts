/** Renderer for a reasoning block: a native disclosure, open while it streams. */
import { html, type TemplateResult } from 'lit';
import type { ReasoningItem } from '../timeline/items.js';
import type { RowContext } from '../timeline/row-context.js';
import { drawLimit, renderShowMore } from './show-more.js';
import { streamText } from './stream-text.js';

/**
 * Reasoning in `<details>`: open while it streams and closed once it ends (when the answer starts).
 * The `open` binding changes only with the streaming state, so a reader's own toggle is kept.
 */
export function renderReasoning(item: ReasoningItem, ctx: RowContext): TemplateResult {
  return html`<details part="reasoning" class="reasoning" ?open=${item.streaming}>
    <summary part="reasoning-summary">${item.streaming ? ctx.strings.thinking : ctx.strings.reasoning}</summary>
    <div class="reasoning-text" part="reasoning-text" ${streamText(item.text, item.streaming, ctx.textRenderer, { limit: drawLimit(item) })}></div>
    ${renderShowMore(item, ctx)}
  </details>`;
}
