/** Renderer for the list of stored conversations: open, rename, delete (after a question). */
import { html, nothing, svg, type TemplateResult } from 'lit';
import { ref } from 'lit/directives/ref.js';
import { repeat } from 'lit/directives/repeat.js';
import { displayName } from '../display-name.js';
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

/**
 * When a conversation was last written, short: the time today, the day and month this year, else the
 * date; in the element's locale. A time that is no date (`NaN`, `1e300`: a store may hold one from an
 * older import, or any store may return one) gives `""`, so one record never stops the list from drawing.
 */
export function formatUpdated(updatedAt: number, locale: string, now = Date.now()): string {
  const date = new Date(typeof updatedAt === 'number' ? updatedAt : NaN);
  if (Number.isNaN(date.getTime())) return '';
  const today = new Date(now);
  const sameDay = date.toDateString() === today.toDateString();
  const options: Intl.DateTimeFormatOptions = sameDay
    ? { hour: 'numeric', minute: '2-digit' }
    : date.getFullYear() === today.getFullYear()
      ? { month: 'short', day: 'numeric' }
      : { year: 'numeric', month: 'short', day: 'numeric' };
  return new Intl.DateTimeFormat(locale, options).format(date);
}

/** A stored conversation as the store lists it (`SessionStore.list()`). */
export interface ConversationSummaryView {
  readonly id: string;
  readonly title?: string | undefined;
  readonly updatedAt?: number | undefined;
  readonly messageCount?: number | undefined;
}

/** What the list shows and calls. */
export interface ConversationListView {
  readonly strings: PagentChatStrings;
  /** BCP 47 tag for the dates. */
  readonly locale: string;
  readonly conversations: readonly ConversationSummaryView[];
  readonly currentId: string | undefined;
  readonly editingId: string | undefined;
  /** The conversation whose delete is being asked about. */
  readonly confirmingId: string | undefined;
  readonly onOpen: (id: string) => void;
  readonly onStartRename: (id: string) => void;
  /** Commits the title field (Enter, or the field losing focus); `byKey` when Enter did it. */
  readonly onRename: (id: string, title: string, byKey: boolean) => void;
  readonly onCancelRename: (id: string) => void;
  readonly onAskDelete: (id: string) => void;
  readonly onCancelDelete: (id: string) => void;
  readonly onDelete: (id: string) => void;
  /** Search, export and import, once their chunk is loaded. */
  readonly tools?: ConversationListTools | undefined;
}

/** What the conversation tools chunk adds to the list. */
export interface ConversationListTools {
  /** The search field and import button over the list. */
  readonly header: unknown;
  /** Search results shown in place of the list, while a query is typed. */
  readonly results: unknown;
  readonly dropping: boolean;
  readonly hasExport: boolean;
  readonly rowAction: (id: string, title: string) => unknown;
  /** Replaces a row (its export choices) when it returns something. */
  readonly rowOverride: (id: string, title: string) => unknown;
  readonly onDrag: (e: DragEvent) => void;
}

function renderTitleInput(view: ConversationListView, x: ConversationSummaryView): TemplateResult {
  return html`<input
    part="session-title-input"
    aria-label=${view.strings.renamePrompt}
    .value=${x.title ?? ''}
    ${ref(focusTitleInput)}
    @keydown=${(e: KeyboardEvent) => {
      if (e.key === 'Enter' && !e.isComposing && e.keyCode !== 229) {
        e.preventDefault();
        view.onRename(x.id, (e.currentTarget as HTMLInputElement).value, true);
      }
      if (e.key === 'Escape') {
        e.preventDefault();
        view.onCancelRename(x.id);
      }
    }}
    @blur=${(e: FocusEvent) => view.onRename(x.id, (e.currentTarget as HTMLInputElement).value, false)}
  />`;
}

function renderConfirm(view: ConversationListView, x: ConversationSummaryView, title: string): TemplateResult {
  const s = view.strings;
  return html`<div
    part="session-confirm"
    class="session-confirm"
    role="group"
    aria-label=${format(s.deleteConversation, { title: short(title) })}
    @keydown=${(e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        view.onCancelDelete(x.id);
      }
    }}
  >
    <span class="session-confirm-text">${format(s.confirmDelete, { title: short(title) })}</span>
    <span class="session-confirm-actions">
      <button part="session-delete-confirm" type="button" class="danger" @click=${() => view.onDelete(x.id)}>${s.delete}</button>
      <button part="session-delete-cancel" type="button" class="secondary" @click=${() => view.onCancelDelete(x.id)}>${s.cancel}</button>
    </span>
  </div>`;
}

function renderRow(view: ConversationListView, x: ConversationSummaryView): unknown {
  const s = view.strings;
  // a title made from the first message names its files ("[file report.pdf]"): shown like any file name
  const title = displayName(x.title || s.untitled);
  if (x.id === view.confirmingId) return renderConfirm(view, x, title);
  const override = view.tools?.rowOverride(x.id, short(title));
  if (override) return override;
  const date = x.updatedAt ? formatUpdated(x.updatedAt, view.locale) : '';
  return html`${x.id === view.editingId
      ? renderTitleInput(view, x)
      : html`<button part="session-open" type="button" class="session-open" title=${title} @click=${() => view.onOpen(x.id)}>
          <span part="session-title" class="session-title">${title}</span>
          ${date === '' ? nothing : html`<span part="session-date" class="session-date">${date}</span>`}
        </button>`}
    <span class="session-actions">
      ${view.tools?.rowAction(x.id, short(title)) ?? nothing}
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
        @click=${() => view.onAskDelete(x.id)}
      >${icon(trash)}</button>
    </span>`;
}

/**
 * The conversation list (`<nav>` of buttons): each row shows its title (bound as text, the full title in
 * `title`) over the date it was last written, with small rename / delete icon buttons named after the
 * conversation. Delete asks first, in the row; rename saves on Enter or when the field loses focus.
 */
export function renderConversationList(view: ConversationListView): TemplateResult {
  const s = view.strings;
  const tools = view.tools;
  const drag = tools ? (e: DragEvent) => tools.onDrag(e) : undefined;
  return html`<nav
    part="session-list"
    class="session-list ${tools?.dropping ? 'dropping' : ''} ${tools?.hasExport ? 'has-export' : ''}"
    aria-label=${s.conversations}
    @dragenter=${drag}
    @dragover=${drag}
    @dragleave=${drag}
    @drop=${drag}
  >
    ${tools?.header ?? nothing}
    ${tools?.results !== undefined
      ? tools.results
      : view.conversations.length === 0
      ? html`<p class="sessions-empty">${s.conversationsEmpty}</p>`
      : html`<ul>
          ${repeat(
            view.conversations,
            (x) => x.id,
            (x) => html`<li
              part="session"
              class="session"
              data-session-id=${x.id}
              aria-current=${x.id === view.currentId ? 'true' : nothing}
            >${renderRow(view, x)}</li>`,
          )}
        </ul>`}
  </nav>`;
}
