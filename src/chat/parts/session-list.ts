/** Renderer for the list of stored conversations: open, rename, delete. */
import { html, nothing, svg, type TemplateResult } from 'lit';
import { ref } from 'lit/directives/ref.js';
import { repeat } from 'lit/directives/repeat.js';
import { format, type PagentChatStrings } from '../i18n.js';

const pencil = svg`<path d="M11.5 2.5l2 2L6 12H4v-2z" /><path d="M10 4l2 2" />`;
const trash = svg`<path d="M3 4.5h10M6.5 4.5V3h3v1.5M4.5 4.5l.6 8.5h5.8l.6-8.5M6.8 7v4M9.2 7v4" />`;

/** Long titles are cut in the buttons' names, so a screen reader says which conversation without reading it all. */
function short(title: string): string {
  const chars = [...title];
  if (chars.length <= 40) return title;
  const head = chars.slice(0, 41).join('');
  const space = head.lastIndexOf(' ');
  return `${(space > 20 ? head.slice(0, space) : chars.slice(0, 40).join('')).trimEnd()}…`;
}

/** The title field takes focus (text selected) when it appears, so renaming works from the keyboard. */
function focusTitleInput(el: Element | undefined): void {
  if (!(el instanceof HTMLInputElement)) return;
  // a new row template is filled before it is attached: focus once it is in the document
  queueMicrotask(() => {
    el.focus();
    el.select();
  });
}

function icon(paths: TemplateResult): TemplateResult {
  return html`<svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">${paths}</svg>`;
}

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

/**
 * The conversation list (`<nav>` of buttons); titles are bound as text, one line each (the full title in
 * `title`), with small rename / delete icon buttons named after the conversation.
 */
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
                      ${ref(focusTitleInput)}
                      @keydown=${(e: KeyboardEvent) => {
                        if (e.key === 'Enter' && !e.isComposing && e.keyCode !== 229) view.onRename(x.id, (e.currentTarget as HTMLInputElement).value);
                        if (e.key === 'Escape') view.onStartRename('');
                      }}
                    />`
                  : html`<button part="session-open" type="button" class="session-title" title=${title} @click=${() => view.onOpen(x.id)}>${title}</button>`}
                <span class="session-actions">
                  <button
                    part="session-rename"
                    type="button"
                    class="icon"
                    aria-label=${format(s.renameConversation, { title: short(title) })}
                    title=${s.rename}
                    @click=${() => view.onStartRename(x.id)}
                  >${icon(pencil)}</button>
                  <button
                    part="session-delete"
                    type="button"
                    class="icon danger"
                    aria-label=${format(s.deleteConversation, { title: short(title) })}
                    title=${s.delete}
                    @click=${() => view.onDelete(x.id)}
                  >${icon(trash)}</button>
                </span>
              </li>`;
            },
          )}
        </ul>`}
  </nav>`;
}
