/** Renderer for the raw wire log drawer: each line as received, decode errors marked. */
import { html, nothing, type TemplateResult } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import type { PagentChatStrings } from '../i18n.js';

/** One raw line, and the decode error it caused, if any. */
export interface WireLogLine {
  readonly n: number;
  readonly text: string;
  error?: string;
}

/** What the drawer shows. Lines are rendered only while it is open. */
export interface WireLogView {
  readonly strings: PagentChatStrings;
  readonly lines: readonly WireLogLine[];
  readonly open: boolean;
  readonly onToggle: (open: boolean) => void;
  /** The reader scrolled the list of lines. */
  readonly onScroll: (list: Element) => void;
}

/** The wire log `<details>`; every line is bound as text. */
export function renderWireLog(view: WireLogView): TemplateResult {
  const s = view.strings;
  return html`<details
    part="wire-log"
    class="wire-log"
    ?open=${view.open}
    @toggle=${(e: Event) => view.onToggle((e.currentTarget as HTMLDetailsElement).open)}
  >
    <summary>${s.wireLog} (${view.lines.length})</summary>
    ${view.open
      ? view.lines.length === 0
        ? html`<p class="wire-empty">${s.wireLogEmpty}</p>`
        : html`<ol class="wire-lines" tabindex="0" aria-label=${s.wireLog} @scroll=${(e: Event) => view.onScroll(e.currentTarget as Element)}>
            ${repeat(
              view.lines,
              (l) => l.n,
              (l) => html`<li class=${l.error ? 'wire-line bad' : 'wire-line'} part=${l.error ? 'wire-line wire-line-error' : 'wire-line'}>
                <code>${l.text}</code>${l.error ? html` <strong class="wire-error">${s.decodeError}: ${l.error}</strong>` : nothing}
              </li>`,
            )}
          </ol>`
      : nothing}
  </details>`;
}
