/**
 * The look of the element's buttons (primary, secondary, stop, danger, icon) and its focus ring, shared by every feature.
 */
import { css } from 'lit';

/** Buttons and focus, a sheet of the element. */
export const controlStyles = css`
  button {
    font: inherit;
    font-size: 0.9em;
    border-radius: 8px;
    border: 1px solid var(--_accent);
    background: var(--_accent);
    color: var(--_accent-fg);
    padding: 5px 12px;
    cursor: pointer;
  }
  button.secondary {
    background: transparent;
    color: var(--_accent);
  }
  button.stop {
    background: var(--_danger);
    border-color: var(--_danger);
    color: var(--_bg);
  }
  button:disabled {
    opacity: 0.5;
    cursor: default;
  }
  :focus-visible {
    outline: 2px solid var(--_focus);
    outline-offset: 2px;
  }
  button.danger {
    background: var(--_danger);
    border-color: var(--_danger);
    color: var(--_bg);
  }
  button.icon {
    display: inline-grid;
    place-items: center;
    width: 26px;
    height: 26px;
    padding: 0;
    border-radius: 6px;
    border-color: transparent;
    background: transparent;
    color: var(--_muted);
  }
  button.icon svg {
    fill: none;
    stroke: currentColor;
    stroke-width: 1.4;
    stroke-linecap: round;
    stroke-linejoin: round;
  }
  button.icon:hover {
    color: var(--_fg);
    background: var(--_bg);
    border-color: var(--_border);
  }
  button.icon.danger:hover {
    color: var(--_danger);
  }
  button.icon {
    padding: 1px 8px;
  }
`;
