/**
 * "Show more" and Copy under a default tool card's long arguments or result: a chunk of its own, loaded
 * the first time a card meets a text longer than one slice (see `renderText` in ./tool-card.ts, which draws
 * that first slice meanwhile). Each "Show more" draws one more slice; Copy puts the whole text on the
 * clipboard, whatever is drawn.
 */
import type { TemplateResult, html, nothing } from 'lit';
import type { AsyncDirective, DirectiveResult, directive } from 'lit/async-directive.js';
import type { format, LocaleName, PagentChatStrings } from '../i18n.js';
import type { sliceEnd } from './card.js';
import type { RowContext } from '../timeline/row-context.js';
import { createStyleAdopter } from '../adopt-styles.js';

/** How long a Copy button says "Copied". */
const COPIED_MS = 2_000;

/** The controls' own strings (optional in `PagentChatStrings`: these are their defaults). */
type ToolTextStrings = Required<Pick<PagentChatStrings, 'toolTextShown' | 'showMore'>>;

const STRINGS: Record<LocaleName, ToolTextStrings> = {
  en: { toolTextShown: 'Showing {shown} of {total} characters', showMore: 'Show more' },
  'zh-CN': { toolTextShown: '显示 {total} 个字符中的 {shown} 个', showMore: '显示更多' },
  ja: { toolTextShown: '{total} 文字中 {shown} 文字を表示', showMore: 'さらに表示' },
};

/** Adds the controls' styles to the element's shadow root (once). */
export const adoptStyles = createStyleAdopter(
  `.tool-more { display: flex; align-items: baseline; flex-wrap: wrap; gap: 8px; margin-top: 4px; font-size: 0.85em; color: var(--_muted); }`,
);

/** Which text of a card: its arguments or its result (the `part` of its `<pre>`). */
export type ToolTextPart = 'tool-arguments' | 'tool-result';

/**
 * What this chunk takes from the element's bundle: Lit, the strings' `format`, and how the card slices.
 * (A chunk that imported them would make the bundler split them out of the element's first load.)
 */
export interface ToolTextParts {
  html: typeof html;
  nothing: typeof nothing;
  AsyncDirective: typeof AsyncDirective;
  directive: typeof directive;
  format: typeof format;
  sliceEnd: typeof sliceEnd;
  /** Characters drawn at first and added by each "Show more". */
  step: number;
}

/** Draws a long text of a card: its `<pre>` with what is drawn so far, then the controls. */
export type LongText = (text: string, part: ToolTextPart, ctx: RowContext, json?: boolean) => DirectiveResult;

/**
 * Makes the directive for a card's long text. It keeps what it has drawn while the card renders again with
 * the same text (a new status, say), and starts over at one slice for another text.
 */
export function createToolText(parts: ToolTextParts): LongText {
  const { html, nothing, format, sliceEnd, step } = parts;
  type Args = Parameters<LongText>;

  class ToolTextDirective extends parts.AsyncDirective {
    private text: string | undefined;
    private shown = 0;
    private args: Args | undefined;
    private copied: boolean | undefined;
    private copiedTimer: ReturnType<typeof setTimeout> | undefined;

    render(...args: Args): TemplateResult {
      this.args = args;
      const [text, part, ctx, json] = args;
      if (text !== this.text) {
        this.text = text;
        this.shown = sliceEnd(text, step);
        this.copied = undefined;
      }
      const s = ctx.strings;
      const own = STRINGS[ctx.locale as LocaleName] ?? STRINGS.en;
      const more = this.shown < text.length;
      const copied = this.copied === undefined ? '' : this.copied ? s.copied : s.copyFailed;
      return html`<pre part=${part} class=${part} tabindex="0" data-json=${json ?? nothing}>${more ? text.slice(0, this.shown) : text}</pre>${more || this.copied !== undefined
        ? html`<div class="tool-more" part="tool-more" role="group" aria-label=${part === 'tool-result' ? s.result : s.arguments}>
            ${more ? html`<span part="tool-shown">${format(s.toolTextShown ?? own.toolTextShown, { shown: this.shown.toLocaleString(ctx.locale), total: text.length.toLocaleString(ctx.locale) })}</span>
            <button type="button" class="secondary" part="tool-show-more" @click=${this.showMore}>${s.showMore ?? own.showMore}</button>` : nothing}
            <button type="button" class="secondary" part="tool-copy" @click=${this.copy}>${s.copy}</button>
            <span part="tool-copy-status" role="status">${copied}</span>
          </div>`
        : nothing}`;
    }

    private readonly showMore = (event: Event): void => {
      const args = this.args;
      if (!args) return;
      const pre = (event.target as Element).closest('.tool-section')?.querySelector('pre');
      this.shown = sliceEnd(args[0], this.shown + step);
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
      const copyText = await import('../message-actions/controller.js').then((m) => m.copyText, () => undefined);
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

  return parts.directive(ToolTextDirective);
}
