/** Renderer for one tool call: name, arguments, status, result, duration, approval buttons. */
import { html, nothing, type TemplateResult } from 'lit';
import { format, type PagentChatStrings } from '../i18n.js';
import type { ToolItem, ToolStatus } from '../timeline/items.js';
import type { RowContext } from '../timeline/row-context.js';
import type { ToolTextPart } from './text.js';

const STATUS_STRING: Record<ToolStatus, keyof PagentChatStrings> = {
  pending: 'toolPending',
  'awaiting-approval': 'toolAwaitingApproval',
  ok: 'toolOk',
  failed: 'toolFailed',
  denied: 'toolDenied',
  cancelled: 'toolCancelled',
};

/** A duration for display: milliseconds under a second, else seconds with one decimal. */
export function formatDuration(ms: number, ctx: RowContext): string {
  if (ms < 1000) return format(ctx.strings.durationMs, { ms: Math.round(ms).toLocaleString(ctx.locale) });
  return format(ctx.strings.durationS, {
    s: (ms / 1000).toLocaleString(ctx.locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 }),
  });
}

/** Approve and deny buttons while a call awaits approval (also under a page's own rendering of it). */
export function renderApproval(item: ToolItem, ctx: RowContext): TemplateResult | typeof nothing {
  return item.status === 'awaiting-approval'
    ? html`<div class="tool-approval" part="tool-approval">
        <button part="approve-button" type="button" @click=${() => ctx.onApproval(item.callId, true)}>${ctx.strings.approve}</button>
        <button part="deny-button" type="button" class="secondary" @click=${() => ctx.onApproval(item.callId, false)}>${ctx.strings.deny}</button>
      </div>`
    : nothing;
}

/**
 * Characters of a card's arguments or result drawn at first, and added by each "Show more": about a
 * hundred screens of the card's box, and a few milliseconds of layout.
 */
export const TOOL_TEXT_STEP = 20_000;

/** The end of the first `at` characters of `text`, moved back one so a surrogate pair is never split. */
export function sliceEnd(text: string, at: number): number {
  if (at >= text.length) return text.length;
  const last = text.charCodeAt(at - 1);
  return last >= 0xd800 && last <= 0xdbff ? at - 1 : at;
}

/**
 * The `<pre>` of a card's arguments or result. The browser lays out a text whole, so a 10 MB result drawn
 * at once blocked the page for seconds: past {@link TOOL_TEXT_STEP} characters only the first slice is
 * drawn, with "Show more" and Copy under it once their chunk is here (./tool-text.ts).
 */
function renderText(text: string, part: ToolTextPart, ctx: RowContext, json?: boolean): unknown {
  const long = text.length > TOOL_TEXT_STEP;
  return (
    (long && ctx.renderLongText?.(text, part, ctx, json)) ||
    html`<pre part=${part} class=${part} tabindex="0" data-json=${json ?? nothing}>${long ? text.slice(0, sliceEnd(text, TOOL_TEXT_STEP)) : text}</pre>`
  );
}

/** A tool card. Every field is model- or tool-provided text and is bound as text; long texts are cut (see `renderText`). */
export function renderToolCard(item: ToolItem, ctx: RowContext): TemplateResult {
  const s = ctx.strings;
  const status = s[STATUS_STRING[item.status]];
  return html`<section
    part="tool-call tool-call-${item.status}"
    class="tool"
    data-status=${item.status}
    aria-label=${`${s.tool}: ${item.name}`}
  >
    <header class="tool-header">
      <code class="tool-name" part="tool-name">${item.name}</code>
      <span class="tool-status" part="tool-status">${status}</span>
      ${item.elapsedMs !== undefined
        ? html`<span class="tool-duration" part="tool-duration">${formatDuration(item.elapsedMs, ctx)}</span>`
        : nothing}
    </header>
    ${item.arguments !== ''
      ? html`<div class="tool-section">
          <span class="label">${s.arguments}</span>
          ${renderText(item.prettyArguments ?? item.arguments, 'tool-arguments', ctx, item.prettyArguments !== undefined)}
        </div>`
      : nothing}
    ${renderApproval(item, ctx)}
    ${item.result !== undefined
      ? html`<div class="tool-section">
          <span class="label">${s.result}${item.truncated ? html` <em>(${s.truncated})</em>` : nothing}</span>
          ${renderText(item.result, 'tool-result', ctx)}
        </div>`
      : nothing}
  </section>`;
}
