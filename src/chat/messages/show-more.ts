/**
 * How much of a long text (an answer, reasoning) is drawn: the first {@link DRAW_CHARS} characters, and
 * as many more for each "Show more" the reader asks for. Every drawn character costs layout and paint on
 * later frames (drawing all of a 10 MB answer in slices took 28 s, its frames growing to 350 ms; with a
 * 48 MB answer drawn, scrolling ran at 16 frames a second), so the rest waits for the reader. The text
 * itself is kept whole: copying an answer copies all of it.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { AnswerItem, ReasoningItem } from '../timeline/items.js';
import type { RowContext } from '../timeline/row-context.js';

/** Characters of a text drawn before the first "Show more" (2 MiB), and after each one. */
export const DRAW_CHARS = 2 * 1024 * 1024;

/** Characters of `item`'s text to draw. */
export const drawLimit = (item: AnswerItem | ReasoningItem): number => DRAW_CHARS * (1 + (item.more ?? 0));

/** The "Show more" button under a text longer than what is drawn. */
export function renderShowMore(item: AnswerItem | ReasoningItem, ctx: RowContext): TemplateResult | typeof nothing {
  const more = ctx.onShowMore;
  if (item.text.length <= drawLimit(item) || !more) return nothing;
  return html`<button part="show-more" class="secondary" type="button" @click=${() => more(item.key)}>${ctx.strings.showMore}</button>`;
}
