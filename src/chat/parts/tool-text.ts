/**
 * The arguments or result text of a default tool card, drawn a slice at a time. The browser lays out a
 * `<pre>` whole, so a 10 MB result drawn at once blocks the page for seconds; the card draws the first
 * {@link TOOL_TEXT_STEP} characters, and "Show more" draws that many more each time it is pressed. Copy
 * puts the whole text on the clipboard, whatever is drawn.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { AsyncDirective, directive } from 'lit/async-directive.js';
import { format } from '../i18n.js';
import type { PartContext } from './context.js';

/**
 * Characters drawn at first and added by each "Show more": about a hundred screens of the card's box, and
 * a few milliseconds of layout.
 */
export const TOOL_TEXT_STEP = 20_000;

/** How long a Copy button says "Copied". */
const COPIED_MS = 2_000;

/** The end of the first `at` characters of `text`, moved back one so a surrogate pair is never split. */
function cut(text: string, at: number): number {
  if (at >= text.length) return text.length;
  const last = text.charCodeAt(at - 1);
  return last >= 0xd800 && last <= 0xdbff ? at - 1 : at;
}

type ToolTextArgs = [text: string, part: 'tool-arguments' | 'tool-result', ctx: PartContext, json?: boolean];

class ToolTextDirective extends AsyncDirective {
  private text: string | undefined;
  private shown = 0;
  private args: ToolTextArgs | undefined;
  private copied: boolean | undefined;
  private copiedTimer: ReturnType<typeof setTimeout> | undefined;

  render(...args: ToolTextArgs): TemplateResult {
    this.args = args;
    const [text, part, ctx, json] = args;
    if (text !== this.text) {
      this.text = text;
      this.shown = cut(text, TOOL_TEXT_STEP);
      this.copied = undefined;
    }
    const s = ctx.strings;
    const more = this.shown < text.length;
    const copied = this.copied === undefined ? '' : this.copied ? s.copied : s.copyFailed;
    return html`<pre part=${part} class=${part} tabindex="0" data-json=${json ?? nothing}>${more ? text.slice(0, this.shown) : text}</pre>${more || this.copied !== undefined
      ? html`<div class="tool-more" part="tool-more" role="group" aria-label=${part === 'tool-result' ? s.result : s.arguments}>
          ${more ? html`<span part="tool-shown">${format(s.toolTextShown, { shown: this.shown.toLocaleString(ctx.locale), total: text.length.toLocaleString(ctx.locale) })}</span>
          <button type="button" class="secondary" part="tool-show-more" @click=${this.showMore}>${s.showMore}</button>` : nothing}
          <button type="button" class="secondary" part="tool-copy" @click=${this.copy}>${s.copy}</button>
          <span part="tool-copy-status" role="status">${copied}</span>
        </div>`
      : nothing}`;
  }

  private readonly showMore = (event: Event): void => {
    const args = this.args;
    if (!args) return;
    const pre = (event.target as Element).closest('.tool-section')?.querySelector('pre');
    this.shown = cut(args[0], this.shown + TOOL_TEXT_STEP);
    this.setValue(this.render(...args));
    // the button is gone once everything is drawn: focus goes to the text rather than to <body>
    if (this.shown >= args[0].length) pre?.focus();
  };

  private readonly copy = async (event: Event): Promise<void> => {
    const args = this.args;
    const root = (event.target as Element).getRootNode();
    if (!args || !(root instanceof ShadowRoot)) return;
    const text = args[0];
    // the fallback through a textarea lives with the message actions; a failed fetch of that chunk is a failed copy
    const copyText = await import('../actions/message-actions.js').then((m) => m.copyText, () => undefined);
    const ok = copyText ? await copyText(text, root) : false;
    if (this.args?.[0] !== text) return;
    this.copied = ok;
    clearTimeout(this.copiedTimer);
    this.copiedTimer = setTimeout(() => {
      this.copied = undefined;
      if (this.isConnected && this.args) this.setValue(this.render(...this.args));
    }, COPIED_MS);
    if (this.isConnected) this.setValue(this.render(...args));
  };

  protected override disconnected(): void {
    clearTimeout(this.copiedTimer);
    this.copied = undefined;
  }
}

/**
 * A tool card's `<pre>` (part `tool-arguments` or `tool-result`) with at most {@link TOOL_TEXT_STEP}
 * characters drawn, and under a longer text a "Show more" and a Copy button. What is drawn is kept while
 * the card re-renders with the same text.
 */
export const toolText = directive(ToolTextDirective);
