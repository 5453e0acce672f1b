/** Renderers for the conversation rows: user message, answer, turn boundary, run end, error. */
import { html, nothing, type TemplateResult } from 'lit';
import { errorSentence } from '../error-kind.js';
import { format } from '../i18n.js';
import type { AnswerItem, ErrorItem, RunEndItem, TurnItem, UserItem, UsageSummary } from '../timeline/items.js';
import type { RowContext } from '../timeline/row-context.js';
import { drawLimit, renderShowMore } from './show-more.js';
import { streamText } from './stream-text.js';

/** A message the user sent. */
export function renderUser(item: UserItem, ctx: RowContext): TemplateResult {
  const editing = ctx.editingKey === item.key;
  return html`<article part="message user" class="message user" aria-label=${ctx.strings.you}>
    ${editing || (item.text === '' && item.attachments) ? nothing : html`<div class="bubble" part="message-text">${item.text}</div>`}
    ${item.attachments ? ctx.renderAttachments?.(item.attachments) : nothing}
  </article>${ctx.messageActions?.(item) ?? nothing}`;
}

/** An answer block, streamed incrementally; a stopped answer carries a visible mark. */
export function renderAnswer(item: AnswerItem, ctx: RowContext): TemplateResult {
  return html`<article
    part="message answer"
    class="message answer"
    aria-label=${ctx.strings.assistant}
    data-key=${item.key}
    data-streaming=${item.streaming ? 'true' : 'false'}
  >
    <div class="text" part="answer-text" ${streamText(item.text, item.streaming, ctx.answerRenderer, { limit: drawLimit(item) })}></div>
    ${renderShowMore(item, ctx)}
    ${item.stopped ? html`<p class="stopped" part="stopped">${ctx.strings.stopped}</p>` : nothing}
  </article>${ctx.messageActions?.(item) ?? nothing}`;
}

/** The boundary before turn `n` (shown 1-based). */
export function renderTurn(item: TurnItem, ctx: RowContext): TemplateResult {
  return html`<div part="turn" class="turn" role="separator" aria-label=${format(ctx.strings.turn, { n: item.turn + 1 })}>
    <span>${format(ctx.strings.turn, { n: item.turn + 1 })}</span>
  </div>`;
}

function usageText(usage: UsageSummary, ctx: RowContext): string {
  const n = (v: number | undefined): string => (v === undefined ? '–' : v.toLocaleString(ctx.locale));
  return format(ctx.strings.usage, { input: n(usage.input), output: n(usage.output), total: n(usage.total) });
}

/**
 * The end of a run: token usage when the provider sent it, the stopped mark when no answer carries it, and
 * for a run a reload cut, what the interrupted turn's part renders (its mark and Continue).
 */
export function renderRunEnd(item: RunEndItem, ctx: RowContext): TemplateResult | typeof nothing {
  const interrupted = item.stopReason === 'interrupted' ? ctx.interrupted?.(item) : undefined;
  if (!item.usage && !item.stoppedWithoutAnswer && !interrupted) return nothing;
  return html`${item.stoppedWithoutAnswer ? html`<p class="stopped" part="stopped">${ctx.strings.stopped}</p>` : nothing}
    ${interrupted ?? nothing}
    ${item.usage ? html`<div part="usage" class="usage">${usageText(item.usage, ctx)}</div>` : nothing}`;
}

/**
 * A failed run: one short sentence for its kind, in the element's language, then the details (the
 * message as sent, code · status · where) behind a disclosure, and a retry button while the run can be
 * retried. Every untrusted piece sits in its own `<bdi>`, so right-to-left or override characters in it
 * cannot reorder the rest of the line.
 */
export function renderError(item: ErrorItem, ctx: RowContext): TemplateResult {
  const s = ctx.strings;
  const retry = ctx.onRetry;
  const facts = [
    item.code === '' ? undefined : html`<bdi>${item.code}</bdi>`,
    item.status === undefined ? undefined : html`<span>${item.status}</span>`,
    item.where === undefined || item.where === '' ? undefined : html`<bdi>${item.where}</bdi>`,
  ].filter((x) => x !== undefined);
  return html`<div part="error" class="error" role="alert" data-kind=${item.failure}>
    <p class="error-title">${errorSentence(item.failure, item.status, s)}</p>
    <details part="error-details" class="error-details">
      <summary>${s.errorDetails}</summary>
      <p class="error-message"><bdi>${item.message}</bdi></p>
      <p class="error-code">${facts.map((f, i) => (i === 0 ? f : html` · ${f}`))}</p>
    </details>
    ${retry && item.retryable
      ? html`<button part="retry-button" type="button" @click=${() => retry(item.key)}>${s.retry}</button>`
      : nothing}
  </div>`;
}
