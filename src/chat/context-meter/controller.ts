/**
 * The context meter: how full the conversation is against the model's context window (`contextWindow`,
 * else the window known for the agent's model, see ./known-windows.ts). The count is the last run's
 * `RunEnd.usage` — its prompt tokens plus its completion tokens, the answer being part of the next
 * prompt — plus an estimate (`countTokens`) of what was shown after it; without usage, the estimate of
 * the whole conversation. The figure shows on hover and focus; past 80 % the meter takes the warning
 * colour. While a run streams, the meter keeps its figure and counts again when the run ends.
 */
import { countTokens } from '../../agent/sessions/tokens.js';
import type { ChatHost } from '../chat-host.js';
import { featureStrings } from '../feature-strings.js';
import { format } from '../i18n.js';
import { blockText, type TimelineItem } from '../timeline/items.js';
import { knownContextWindow } from './known-windows.js';
import { meterDefaults } from './strings.js';
import { adoptStyles } from './styles.js';

/** Past this share of the window, the meter warns. */
export const WARN_AT = 0.8;

/** What an item adds to the next request, as text (reasoning is not sent back by most providers). */
function itemText(item: TimelineItem): string {
  switch (item.kind) {
    case 'user':
      return item.text;
    case 'answer':
      return blockText(item.text);
    case 'tool':
      return item.arguments + (item.result ?? '');
    default:
      return '';
  }
}

/** Counts the tokens in a conversation shown: the last usage reported plus the estimate of what came after it. */
export function contextTokens(items: readonly TimelineItem[], estimate: (text: string) => number): { tokens: number; estimated: boolean } {
  let after = 0;
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i]!;
    if (item.kind === 'run-end' && item.usage && (item.usage.input !== undefined || item.usage.total !== undefined)) {
      const { input, output, total } = item.usage;
      const used = input !== undefined ? input + (output ?? 0) : total!;
      return { tokens: used + after, estimated: false };
    }
    const text = itemText(item);
    if (text !== '') after += estimate(text);
  }
  return { tokens: after, estimated: true };
}

export class ContextMeter {
  /** The last count, kept while a run streams (the count is taken again when it ends). */
  private last: { timeline: object; tokens: number } | undefined;

  constructor(private readonly host: ChatHost) {
    adoptStyles(host.el.renderRoot);
    host.requestUpdate();
  }

  /** The window in tokens: the element's `contextWindow`, else the one known for the agent's model. */
  get window(): number | undefined {
    const own = this.host.el.contextWindow;
    if (typeof own === 'number' && Number.isFinite(own) && own > 0) return own;
    const agent = this.host.el.agent as { llm?: { model?: unknown } } | undefined;
    return knownContextWindow(agent?.llm?.model);
  }

  /** The tokens the conversation shown takes. */
  get tokens(): number {
    // the timeline's items grow in place: a new timeline object is what says something changed
    const timeline = this.host.timeline;
    if (this.last && (this.last.timeline === timeline || this.host.el.streaming)) return this.last.tokens;
    const tokens = contextTokens(timeline.items, (text) => countTokens(text)).tokens;
    this.last = { timeline, tokens };
    return tokens;
  }

  render(): unknown {
    const { html, nothing } = this.host.lit;
    const max = this.window;
    if (max === undefined) return nothing;
    const used = this.tokens;
    const share = used / max;
    const percent = Math.round(share * 100);
    const locale = this.host.locale();
    const s = featureStrings(meterDefaults, locale, this.host.strings());
    const figure = format(s.contextUsed, { used: used.toLocaleString(locale), max: max.toLocaleString(locale), percent: String(percent) });
    return html`<div part="context-meter" class="context-meter" role="meter" tabindex="0" aria-label=${s.contextLabel}
        aria-valuemin="0" aria-valuemax=${max} aria-valuenow=${Math.min(used, max)} aria-valuetext=${figure}
        data-level=${share > WARN_AT ? 'warning' : 'ok'}>
        <span class="context-bar"><span class="context-fill" style="inline-size: ${Math.min(100, percent)}%"></span></span>
        <span part="context-figure" class="context-figure" aria-hidden="true">${figure}</span>
      </div>`;
  }
}
