/**
 * The conversation list's search (in the list's tools chunk): the field and its results in place of the
 * list, debounced, only the newest query updating them; arrow keys move through the results, Enter opens
 * one (at the message found), Escape clears the field.
 */
import type { TemplateResult } from 'lit';
import type { SessionSearchHit } from '../../store/session-search.js';
import { displayName } from '../display-name.js';
import { conversationStrings, fill, type ConversationStrings } from './strings.js';
import type { ToolsOwner } from './list-tools.js';

const DEBOUNCE_MS = 150;

/** The search of stored conversations. */
export class ConversationSearch {
  /** The query as typed; results show while it is not blank. */
  query = '';
  /** The newest query's hits (`undefined` until it has some, or while the query is blank). */
  hits: SessionSearchHit[] | undefined;
  /** The result chosen with the arrow keys (-1: none). */
  active = -1;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private searching: AbortController | undefined;
  /** True while a search reads the store (its results, or "Searching…", show when it is done). */
  busy = false;

  /** `announce` says how many results came, politely. */
  constructor(
    private readonly owner: ToolsOwner,
    private readonly announce: (text: string) => void,
  ) {}

  private get s(): ConversationStrings {
    return conversationStrings(this.owner.locale(), this.owner.strings());
  }

  private update(): void {
    this.owner.host.requestUpdate();
  }

  /** Sets the query: searches after a short pause; a newer query aborts an older one. */
  setQuery(query: string): void {
    this.query = query;
    clearTimeout(this.timer);
    this.searching?.abort();
    this.searching = undefined;
    if (query.trim() === '') {
      this.busy = false;
      this.hits = undefined;
      this.active = -1;
      this.announce('');
      this.update();
      return;
    }
    this.timer = setTimeout(() => void this.search(), DEBOUNCE_MS);
  }

  /** Runs the current query now (again, after a store change). */
  async search(): Promise<void> {
    const store = this.owner.store();
    if (!store?.search || this.query.trim() === '') return;
    this.searching?.abort();
    const controller = new AbortController();
    this.searching = controller;
    // a search that finds nothing reads every conversation: say that it is under way
    this.busy = true;
    this.update();
    try {
      const hits = await store.search(this.query, { signal: controller.signal });
      if (this.searching !== controller) return;
      this.busy = false;
      this.hits = hits;
      this.active = -1;
      const s = this.s;
      this.announce(hits.length === 0 ? s.searchNone : hits.length === 1 ? s.searchFoundOne : fill(s.searchFound, { count: String(hits.length) }));
      this.update();
    } catch (err) {
      if (this.searching === controller) {
        this.busy = false;
        this.update();
      }
      if (!controller.signal.aborted) this.owner.error(err);
    }
  }

  /** Stops a pending search (the element left the page). */
  stop(): void {
    clearTimeout(this.timer);
    this.searching?.abort();
  }

  private openHit(hit: SessionSearchHit): void {
    void this.owner.open(hit.id, hit.seq);
  }

  private onKey(e: KeyboardEvent): void {
    const hits = this.hits ?? [];
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      if (hits.length === 0) return;
      e.preventDefault();
      const step = e.key === 'ArrowDown' ? 1 : -1;
      this.active = this.active < 0 ? (step > 0 ? 0 : hits.length - 1) : (this.active + step + hits.length) % hits.length;
      this.update();
      void this.owner.host.updateComplete.then(() =>
        this.owner.host.shadowRoot?.getElementById(`conv-hit-${this.active}`)?.scrollIntoView({ block: 'nearest' }),
      );
    } else if (e.key === 'Enter' && !e.isComposing && e.keyCode !== 229) {
      const hit = hits[this.active] ?? (this.active < 0 ? hits[0] : undefined);
      if (!hit) return;
      e.preventDefault();
      this.openHit(hit);
    } else if (e.key === 'Escape' && this.query !== '') {
      e.preventDefault();
      (e.currentTarget as HTMLInputElement).value = '';
      this.setQuery('');
    }
  }

  /** The search field, over the list (nothing when the store cannot search). */
  renderField(): unknown {
    const { html, nothing } = this.owner.lit;
    const s = this.s;
    const open = this.hits !== undefined;
    return this.owner.store()?.search
      ? html`<input
        part="session-search"
        class="conv-search"
        type="search"
        role="combobox"
        aria-label=${s.searchConversations}
        placeholder=${s.searchConversations}
        aria-expanded=${open ? 'true' : 'false'}
        aria-controls="conv-results"
        aria-autocomplete="list"
        aria-activedescendant=${open && this.active >= 0 ? `conv-hit-${this.active}` : nothing}
        .value=${this.query}
        @input=${(e: InputEvent) => this.setQuery((e.currentTarget as HTMLInputElement).value)}
        @keydown=${(e: KeyboardEvent) => this.onKey(e)}
      />`
      : nothing;
  }

  /** The snippet with its match in a `<mark>` (all bound as text). */
  private renderHit(hit: SessionSearchHit, i: number): TemplateResult {
    const { html, nothing } = this.owner.lit;
    const { before, match, after } = hit.snippet;
    const marked = html`${before}<mark>${match}</mark>${after}`;
    const title = displayName(hit.title || this.owner.strings().untitled);
    return html`<li
      part="search-hit"
      class="session search-hit"
      role="option"
      id=${`conv-hit-${i}`}
      data-session-id=${hit.id}
      aria-selected=${i === this.active ? 'true' : 'false'}
      @click=${() => this.openHit(hit)}
    >
      <span class="session-open">
        <span part="session-title" class="session-title">${hit.seq === undefined ? marked : title}</span>
        ${hit.seq === undefined ? nothing : html`<span part="search-snippet" class="search-snippet">${marked}</span>`}
      </span>
    </li>`;
  }

  /** The results in place of the list while a query is typed; `undefined` otherwise. */
  renderResults(): TemplateResult | undefined {
    const { html, nothing } = this.owner.lit;
    const progress = html`<p part="search-progress" class="sessions-empty">${this.s.searching}</p>`;
    if (this.hits === undefined) return this.busy ? progress : undefined;
    // the previous query's results stay (marked busy) until the new ones are in
    return html`${this.busy ? progress : nothing}<ul id="conv-results" role="listbox" aria-label=${this.s.searchConversations} aria-busy=${this.busy ? 'true' : 'false'}>
      ${this.hits.map((hit, i) => this.renderHit(hit, i))}
    </ul>${this.hits.length === 0 && !this.busy ? html`<p class="sessions-empty">${this.s.searchNone}</p>` : ''}`;
  }

}
