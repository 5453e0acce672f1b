/**
 * The actions under a message: Copy on every message; Retry under a stopped last run of a `src` or `client`
 * source; with a conversation kept in the browser (the
 * `agent` property and a store), Edit on user messages, Regenerate on the last answer, and `‹ 2 / 3 ›`
 * to move between the versions of a message. Every control is a real button with an accessible name.
 */
import type { TemplateResult, html as litHtml, nothing as litNothing } from 'lit';
import type { RowContext } from '../timeline/row-context.js';

/** Lit's template functions, handed over by the element (this chunk imports nothing of its bundle). */
export interface Lit {
  html: typeof litHtml;
  nothing: typeof litNothing;
}

/** `{n} of {total}` (the i18n module's `format`, which lives in the element's bundle). */
const fill = (template: string, n: number, total: number): string => template.replace('{n}', String(n)).replace('{total}', String(total));

/** What the element knows about one shown message, for its actions. */
export interface MessageActionTarget {
  /** The text that Copy puts on the clipboard (an answer's Markdown source, a user message's text). */
  readonly text: string;
  readonly role: 'user' | 'assistant';
  /** The versions of this message (its own seq among its siblings'), when the conversation has branches. */
  readonly versions?: { readonly seqs: readonly number[]; readonly index: number };
  readonly canEdit: boolean;
  readonly canRegenerate: boolean;
  /** The last run was stopped: Retry sends its message again (a `src` or `client` source). */
  readonly canRetry?: boolean;
}

/** Callbacks of the actions; the element implements them. */
export interface MessageActionHandlers {
  copy(key: string, target: MessageActionTarget, button: HTMLElement): void;
  regenerate(key: string): void;
  edit(key: string): void;
  switchTo(key: string, seq: number): void;
  retry(): void;
}

function versions(lit: Lit, key: string, target: MessageActionTarget, ctx: RowContext, on: MessageActionHandlers): unknown {
  const { html, nothing } = lit;
  const v = target.versions;
  if (!v || v.seqs.length < 2) return nothing;
  const s = ctx.strings;
  const prev = v.seqs[v.index - 1];
  const next = v.seqs[v.index + 1];
  return html`<span part="branch-switcher" class="versions">
    <button part="branch-previous" type="button" aria-label=${s.previousVersion} title=${s.previousVersion}
      ?disabled=${prev === undefined} @click=${() => prev !== undefined && on.switchTo(key, prev)}>‹</button>
    <span part="branch-position" class="position">${fill(s.versionOf, v.index + 1, v.seqs.length)}</span>
    <button part="branch-next" type="button" aria-label=${s.nextVersion} title=${s.nextVersion}
      ?disabled=${next === undefined} @click=${() => next !== undefined && on.switchTo(key, next)}>›</button>
  </span>`;
}

/**
 * The action row of one message (`role="toolbar"`, so screen readers announce it as a group of actions),
 * placed right after the message's `<article>`, so the message's own text content stays just the message.
 */
export function renderMessageActions(
  lit: Lit,
  key: string,
  target: MessageActionTarget,
  ctx: RowContext,
  on: MessageActionHandlers,
  copied: { ok: boolean } | undefined,
  /** Read aloud and feedback, when their parts are loaded. */
  extra?: unknown,
): TemplateResult {
  const { html, nothing } = lit;
  const s = ctx.strings;
  return html`<div part="message-actions" class="message-actions ${target.role}" role="toolbar" aria-label=${s.messageActions} data-key=${key}>
    ${versions(lit, key, target, ctx, on)}
    <button part="message-copy-button" type="button" @click=${(e: Event) => on.copy(key, target, e.currentTarget as HTMLElement)}>
      ${copied?.ok ? s.copied : s.copy}
    </button>
    ${target.canEdit ? html`<button part="edit-button" type="button" @click=${() => on.edit(key)}>${s.edit}</button>` : nothing}
    ${target.canRegenerate
      ? html`<button part="regenerate-button" type="button" @click=${() => on.regenerate(key)}>${s.regenerate}</button>`
      : nothing}
    ${target.canRetry ? html`<button part="resend-button" type="button" @click=${() => on.retry()}>${s.retry}</button>` : nothing}
    ${extra ?? nothing}
    ${copied && !copied.ok ? html`<span part="copy-failed" class="copy-failed">${s.copyFailed}</span>` : nothing}
  </div>`;
}

/**
 * The inline editor of a user message: Enter sends (not while an input method is composing), Shift+Enter
 * makes a new line, Escape cancels.
 */
export function renderEditor(
  { html }: Lit,
  key: string,
  text: string,
  ctx: RowContext,
  on: { send(text: string): void; cancel(): void },
): TemplateResult {
  const s = ctx.strings;
  const field = (e: Event): HTMLTextAreaElement =>
    (e.currentTarget as HTMLElement).closest('.editor')!.querySelector('textarea')!;
  return html`<div part="message-editor" class="editor" data-key=${key}>
    <textarea part="editor-input" aria-label=${s.editLabel} .value=${text} rows="3"
      @keydown=${(e: KeyboardEvent) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          on.cancel();
        } else if (e.key === 'Enter' && !e.shiftKey && !e.isComposing && e.keyCode !== 229) {
          e.preventDefault();
          on.send((e.currentTarget as HTMLTextAreaElement).value);
        }
      }}></textarea>
    <div class="editor-buttons">
      <button part="editor-cancel" type="button" @click=${() => on.cancel()}>${s.cancelEdit}</button>
      <button part="editor-send" type="button" @click=${(e: Event) => on.send(field(e).value)}>${s.send}</button>
    </div>
  </div>`;
}
