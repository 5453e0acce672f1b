/** Renderer for the composer: the message box, send / stop / new-conversation buttons, suggestion chips. */
import { html, nothing, type TemplateResult } from 'lit';
import type { PagentChatStrings } from '../i18n.js';

/** What the composer shows and calls. */
export interface ComposerView {
  readonly strings: PagentChatStrings;
  readonly streaming: boolean;
  readonly disabled: boolean;
  readonly onSend: (text: string) => void;
  readonly onStop: () => void;
  readonly onNew: () => void;
  /** When set, a message written during a run is sent into it ("send now") instead of waiting. */
  readonly onSteer?: ((text: string) => void) | undefined;
  /** The attach button's file types; with `onFiles`, the composer takes files (picker and paste). */
  readonly accept?: string;
  readonly onFiles?: (files: File[]) => void;
  /** The previews of files waiting to be sent (a message may then have no text). */
  readonly previews?: unknown;
  readonly hasAttachments?: boolean;
  /** Dictation and the context meter, between the message box and the buttons (from their chunks). */
  readonly tools?: unknown;
}

/**
 * True for the key press that should send: Enter without Shift, and not while an IME composition is
 * active (`isComposing`, or keyCode 229 which Chromium and Safari report for the Enter that commits one).
 */
export function isSendKey(e: KeyboardEvent): boolean {
  return e.key === 'Enter' && !e.shiftKey && !e.isComposing && e.keyCode !== 229;
}

function submit(form: HTMLFormElement, view: ComposerView): void {
  const input = form.elements.namedItem('message') as HTMLTextAreaElement;
  const text = input.value;
  if ((text.trim() === '' && !(view.hasAttachments && !view.streaming)) || (view.streaming && !view.onSteer)) return;
  input.value = '';
  if (view.streaming) view.onSteer!(text);
  else view.onSend(text);
}

function handleSuggestion(e: Event, view: Pick<ComposerView, 'streaming' | 'onSend'>): void {
  const slot = e.currentTarget as HTMLSlotElement;
  const chip = e.composedPath().find((n): n is HTMLElement => n instanceof HTMLElement && slot.assignedElements({ flatten: true }).includes(n));
  if (!chip || view.streaming) return;
  const text = chip.dataset['text'] ?? chip.textContent?.trim() ?? '';
  if (text !== '') view.onSend(text);
}

/**
 * The suggestion chips (`slot="suggestions"`): in the empty state they sit in the timeline, under the
 * invitation; once the conversation runs they are one horizontally scrolling row above the composer, so
 * they never take the timeline's room.
 */
export function renderSuggestions(view: Pick<ComposerView, 'streaming' | 'onSend'>, where: 'empty' | 'composer'): TemplateResult {
  return html`<div class=${where === 'empty' ? 'suggestions empty-suggestions' : 'suggestions composer-suggestions'} part="suggestions">
    <slot name="suggestions" @click=${(e: Event) => handleSuggestion(e, view)}></slot>
  </div>`;
}

/** The composer form (with the suggestion row above it when `suggestions` is true). */
export function renderComposer(view: ComposerView & { readonly suggestions: boolean }): TemplateResult {
  const s = view.strings;
  return html`${view.suggestions ? renderSuggestions(view, 'composer') : nothing}
    <form
      part="composer"
      class="composer"
      @submit=${(e: SubmitEvent) => {
        e.preventDefault();
        submit(e.currentTarget as HTMLFormElement, view);
      }}
    >
      ${view.previews ?? nothing}
      <textarea
        part="input"
        name="message"
        rows="2"
        aria-label=${s.composerLabel}
        placeholder=${s.placeholder}
        ?disabled=${view.disabled}
        @paste=${(e: ClipboardEvent) => {
          const files = [...(e.clipboardData?.files ?? [])];
          if (files.length === 0 || !view.onFiles) return;
          if (!e.clipboardData!.types.includes('text/plain')) e.preventDefault();
          view.onFiles(files);
        }}
        @keydown=${(e: KeyboardEvent) => {
          if (!isSendKey(e)) return;
          e.preventDefault();
          submit((e.currentTarget as HTMLTextAreaElement).form!, view);
        }}
      ></textarea>
      ${view.tools ?? nothing}
      <div class="composer-actions">
        ${view.onFiles
          ? html`<button part="attach-button" type="button" class="secondary attach" aria-label=${s.attach} title=${s.attach}
                @click=${(e: Event) => ((e.currentTarget as HTMLElement).nextElementSibling as HTMLInputElement).click()}>📎</button
              ><input type="file" multiple hidden accept=${view.accept ?? ''} @change=${(e: Event) => {
                const input = e.currentTarget as HTMLInputElement;
                view.onFiles!([...(input.files ?? [])]);
                input.value = '';
              }} />`
          : nothing}
        <button part="new-button" type="button" class="secondary" @click=${view.onNew}>${s.newConversation}</button>
        ${view.streaming && view.onSteer
          ? html`<button part="steer-button" type="submit" class="secondary">${s.sendNow}</button>`
          : ''}
        ${view.streaming
          ? html`<button part="stop-button" type="button" class="stop" @click=${view.onStop}>${s.stop}</button>`
          : html`<button part="send-button" type="submit" ?disabled=${view.disabled}>${s.send}</button>`}
      </div>
    </form>`;
}

