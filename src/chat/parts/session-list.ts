/** Renderer for the list of stored conversations: open, rename, delete. */
import { html, nothing, type TemplateResult } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import type { PagentChatStrings } from '../i18n.js';

/** A stored conversation as the store lists it (design §3 `SessionStore.list()`). */
export interface SessionSummaryView {
  readonly id: string;
  readonly title?: string | undefined;
  readonly updatedAt?: number | undefined;
  readonly messageCount?: number | undefined;
}

/** What the list shows and calls. */
export interface SessionListView {
  readonly strings: PagentChatStrings;
  readonly sessions: readonly SessionSummaryView[];
  readonly currentId: string | undefined;
  readonly editingId: string | undefined;
  readonly onOpen: (id: string) => void;
  readonly onStartRename: (id: string) => void;
  readonly onRename: (id: string, title: string) => void;
  readonly onDelete: (id: string) => void;
}

/** The conversation list (`<nav>` of buttons); titles are bound as text. */
export function renderSessionList(view: SessionListView): TemplateResult {
  const s = view.strings;
  return html`<nav part="session-list" class="session-list" aria-label=${s.conversations}>
    ${view.sessions.length === 0
      ? html`<p class="sessions-empty">${s.conversationsEmpty}</p>`
      : html`<ul>
          ${repeat(
            view.sessions,
            (x) => x.id,
            (x) => {
              const title = x.title || s.untitled;
              return html`<li part="session" class="session" aria-current=${x.id === view.currentId ? 'true' : nothing}>
                ${x.id === view.editingId
                  ? html`<input
                      part="session-title-input"
                      aria-label=${s.renamePrompt}
                      .value=${x.title ?? ''}
                      @keydown=${(e: KeyboardEvent) => {
                        if (e.key === 'Enter' && !e.isComposing && e.keyCode !== 229) view.onRename(x.id, (e.currentTarget as HTMLInputElement).value);
                        if (e.key === 'Escape') view.onStartRename('');
                      }}
                    />`
                  : html`<button part="session-open" type="button" class="session-title" @click=${() => view.onOpen(x.id)}>${title}</button>`}
                <button part="session-rename" type="button" class="secondary" aria-label=${`${s.rename}: ${title}`} @click=${() => view.onStartRename(x.id)}>${s.rename}</button>
                <button part="session-delete" type="button" class="secondary" aria-label=${`${s.delete}: ${title}`} @click=${() => view.onDelete(x.id)}>${s.delete}</button>
              </li>`;
            },
          )}
        </ul>`}
  </nav>`;
}
