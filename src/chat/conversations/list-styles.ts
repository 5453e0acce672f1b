/** The conversation list's styles: adopted by the shadow root when the list's chunk loads. */
import { createStyleAdopter } from '../adopt-styles.js';

/** Adds the conversation list's styles to a shadow root (once). */
export const adoptListStyles = createStyleAdopter(`
  .session-list {
    flex: none;
    width: 19em;
    max-width: 40%;
    border-right: 1px solid var(--_border);
    overflow-y: auto;
    padding: 6px;
    font-size: 0.9em;
  }
  .session-list ul {
    list-style: none;
    margin: 0;
    padding: 0;
  }
  .sessions-empty {
    margin: 6px;
    color: var(--_muted);
  }
  /* A row: the title over the date, the small icon buttons at the right of the date line. */
  .session {
    position: relative;
    display: flex;
    align-items: center;
    min-height: 2.2em;
    padding: 1px 2px;
    border-radius: 6px;
  }
  .session + .session {
    margin-top: 1px;
  }
  .session:hover {
    background: var(--_surface);
  }
  .session[aria-current='true'] {
    background: var(--_user-bg);
  }
  .session[aria-current='true'] .session-title {
    font-weight: 600;
  }
  .session-open {
    flex: 1;
    min-width: 0;
    display: flex;
    flex-direction: column;
    align-items: stretch;
    font-size: 1em;
    line-height: 1.35;
    padding: 4px 6px;
    text-align: start;
    background: transparent;
    color: inherit;
    border-color: transparent;
    border-radius: 6px;
  }
  .session-title {
    white-space: nowrap;
    overflow: hidden;
    text-overflow: ellipsis;
  }
  .session-date {
    min-height: 26px;
    display: flex;
    align-items: center;
    padding-inline-end: 58px;
    font-size: 0.82em;
    color: var(--_muted);
  }
  .session input {
    flex: 1;
    min-width: 0;
    margin-bottom: 28px;
    font: inherit;
    color: inherit;
    background: var(--_bg);
    border: 1px solid var(--_accent);
    border-radius: 6px;
    padding: 3px 6px;
  }
  .session-actions {
    position: absolute;
    inset-inline-end: 4px;
    bottom: 3px;
    display: flex;
    gap: 2px;
  }
  .session-confirm {
    flex: 1;
    display: flex;
    flex-direction: column;
    gap: 4px;
    padding: 4px 6px;
  }
  .session-confirm-text {
    overflow-wrap: anywhere;
  }
  .session-confirm-actions {
    display: flex;
    gap: 6px;
  }
  /* Narrow: the list sits above the timeline, a few rows high, so the conversation keeps the room. */
  @container pagent-chat (max-width: 560px) {
    .session-list {
      width: auto;
      max-width: none;
      max-height: 8.6em;
      border-right: none;
      border-bottom: 1px solid var(--_border);
    }
  }
`);
