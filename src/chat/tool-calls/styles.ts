/**
 * The tool cards' styles: name, status, duration, arguments and result, and the approve / deny row.
 */
import { css } from 'lit';

/** Tool cards, a sheet of the element. */
export const toolCallStyles = css`
  .tool {
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_surface);
    padding: 8px 10px;
    font-size: 0.92em;
  }
  .tool[data-status='failed'],
  .tool[data-status='denied'] {
    border-color: var(--_danger);
  }
  .tool-header {
    display: flex;
    align-items: baseline;
    gap: 8px;
    flex-wrap: wrap;
  }
  .tool-name {
    font-family: var(--_mono);
    font-weight: 600;
    overflow-wrap: anywhere;
  }
  .tool-status {
    font-size: 0.85em;
    padding: 0 6px;
    border-radius: 999px;
    border: 1px solid currentColor;
    color: var(--_muted);
  }
  .tool[data-status='ok'] .tool-status {
    color: var(--_ok);
  }
  .tool[data-status='failed'] .tool-status,
  .tool[data-status='denied'] .tool-status {
    color: var(--_danger);
  }
  .tool-duration {
    color: var(--_muted);
    font-size: 0.85em;
  }
  .tool-section {
    margin-top: 6px;
  }
  .label {
    font-size: 0.8em;
    color: var(--_muted);
  }
  .tool pre {
    margin: 2px 0 0;
    font-family: var(--_mono);
    font-size: 0.9em;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
    max-height: 14em;
    overflow: auto;
    background: var(--_bg);
    border-radius: 6px;
    padding: 6px 8px;
  }
  .tool-approval {
    display: flex;
    gap: 8px;
    margin-top: 8px;
  }
`;
