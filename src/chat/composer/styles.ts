/**
 * The composer's styles: the message box and its buttons, and the suggestion chips (slotted by the page).
 */
import { css } from 'lit';

/** The composer, a sheet of the element. */
export const composerStyles = css`
  .suggestions {
    display: flex;
    gap: 6px;
  }
  /* Once the conversation runs: one row that scrolls sideways, never a second line. */
  .composer-suggestions {
    flex: none;
    flex-wrap: nowrap;
    overflow-x: auto;
    padding: 2px var(--_gap);
    scrollbar-width: thin;
  }
  .composer-suggestions ::slotted([slot='suggestions']) {
    flex: none;
    white-space: nowrap;
  }
  /* A chip look for slotted suggestions; the page's own styles for them win over these. */
  ::slotted([slot='suggestions']) {
    cursor: pointer;
    font: inherit;
    font-size: 0.85em;
    line-height: 1.4;
    padding: 3px 12px;
    margin: 6px 0;
    border-radius: 999px;
    border: 1px solid var(--_border);
    background: var(--_surface);
    color: var(--_fg);
  }
  ::slotted([slot='suggestions']:hover) {
    border-color: var(--_accent);
    color: var(--_accent);
  }
  ::slotted([slot='suggestions']:focus-visible) {
    outline: 2px solid var(--_focus);
    outline-offset: 2px;
  }
  /* here, not in the attachment chunk: it also says that the chunk could not be loaded */
  .attachment-error { color: var(--_danger); font-size: 0.85em; }
  .attachment-error p { margin: 0; }
  .composer {
    display: flex;
    flex-wrap: wrap;
    gap: 8px;
    padding: var(--_gap);
    border-top: 1px solid var(--_border);
    align-items: flex-end;
  }
  textarea {
    flex: 1 1 14em;
    resize: vertical;
    min-height: 2.6em;
    max-height: 12em;
    font: inherit;
    color: inherit;
    background: var(--_bg);
    border: 1px solid var(--_border);
    border-radius: 8px;
    padding: 6px 8px;
  }
  .composer-actions {
    display: flex;
    gap: 6px;
    margin-inline-start: auto;
  }
`;
