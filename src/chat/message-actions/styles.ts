/**
 * The message actions' styles: the toolbar under a finished message, the version switcher and the inline editor.
 * They ship with the element (not the actions' chunk) so the toolbar never shows unstyled.
 */
import { css } from 'lit';

/** Message actions, a sheet of the element. */
export const messageActionStyles = css`
  /* Message actions: muted, in the flow of the message, reachable with Tab. */
  .message-actions {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 4px;
    margin-top: calc(2px - var(--_gap));
    color: var(--_muted);
    font-size: 0.85em;
  }
  .message-actions.user {
    justify-content: flex-end;
  }
  .message-actions button {
    background: transparent;
    color: var(--_muted);
    border-color: transparent;
    padding: 2px 8px;
    font-size: 1em;
  }
  .message-actions button:hover:not(:disabled) {
    color: var(--_fg);
    border-color: var(--_border);
  }
  .versions {
    display: inline-flex;
    align-items: center;
    gap: 2px;
    font-variant-numeric: tabular-nums;
  }
  .message-actions .versions button {
    padding: 0 6px;
    font-size: 1.2em;
    line-height: 1.2;
  }
  .copy-failed {
    color: var(--_danger);
  }
  /* The message being edited takes the timeline's width, so the editor never runs past the edge. */
  .message.user:has(+ .editor) {
    display: none;
  }
  .editor {
    display: flex;
    flex-direction: column;
    gap: 6px;
  }
  .editor textarea {
    font: inherit;
    color: inherit;
    background: var(--_bg);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    padding: 8px 12px;
    resize: vertical;
  }
  .editor-buttons {
    display: flex;
    justify-content: flex-end;
    gap: 6px;
  }
  .editor-buttons [part='editor-cancel'] {
    background: transparent;
    color: var(--_accent);
`;
