/** Renderers for the conversation rows: user message, answer, turn boundary, run end, error. */
import { html, nothing, type TemplateResult } from 'lit';
import { format } from '../i18n.js';
import type { AnswerItem, ErrorItem, RunEndItem, TurnItem, UserItem, UsageSummary } from '../timeline.js';
import type { PartContext } from './context.js';
import { streamText } from './stream-text.js';

/** A message the user sent. */
export function renderUser(item: UserItem, ctx: PartContext): TemplateResult {
  return html`<article part="message user" class="message user" aria-label=${ctx.strings.you}>
    <div class="bubble" part="message-text">${item.text}</div>
  </article>`;
}

/** An answer block, streamed incrementally; a stopped answer carries a visible mark. */
export function renderAnswer(item: AnswerItem, ctx: PartContext): TemplateResult {
  return html`<article
    part="message answer"
    class="message answer"
    aria-label=${ctx.strings.assistant}
    data-streaming=${item.streaming ? 'true' : 'false'}
  >
    <div class="text" part="answer-text" ${streamText(item.text, item.streaming, ctx.answerRenderer)}></div>
    ${item.stopped ? html`<p class="stopped" part="stopped">${ctx.strings.stopped}</p>` : nothing}
  </article>`;
}

/** The boundary before turn `n` (shown 1-based). */
export function renderTurn(item: TurnItem, ctx: PartContext): TemplateResult {
  return html`<div part="turn" class="turn" role="separator" aria-label=${format(ctx.strings.turn, { n: item.turn + 1 })}>
    <span>${format(ctx.strings.turn, { n: item.turn + 1 })}</span>
  </div>`;
}

function usageText(usage: UsageSummary, ctx: PartContext): string {
  const n = (v: number | undefined): string => (v === undefined ? '–' : v.toLocaleString(ctx.locale));
  return format(ctx.strings.usage, { input: n(usage.input), output: n(usage.output), total: n(usage.total) });
}

/** The end of a run: token usage when the provider sent it, the stopped mark when no answer carries it. */
export function renderRunEnd(item: RunEndItem, ctx: PartContext): TemplateResult | typeof nothing {
  if (!item.usage && !item.stoppedWithoutAnswer) return nothing;
  return html`${item.stoppedWithoutAnswer ? html`<p class="stopped" part="stopped">${ctx.strings.stopped}</p>` : nothing}
    ${item.usage ? html`<div part="usage" class="usage">${usageText(item.usage, ctx)}</div>` : nothing}`;
}

/** A failed run: the message as text, the code, and a retry button when the run can be sent again. */
export function renderError(item: ErrorItem, ctx: PartContext): TemplateResult {
  const detail = [item.code, item.status, item.where].filter((x) => x !== undefined && x !== '').join(' · ');
  const retry = ctx.onRetry;
  return html`<div part="error" class="error" role="alert">
    <p class="error-title">${ctx.strings.errorTitle}</p>
    <p class="error-message">${item.message}</p>
    <p class="error-code">${detail}</p>
    ${retry && item.retryable
      ? html`<button part="retry-button" type="button" @click=${() => retry(item.key)}>${ctx.strings.retry}</button>`
      : nothing}
  </div>`;
}
