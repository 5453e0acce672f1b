/**
 * The wire log drawer's styles: the raw lines, the bad ones marked.
 */
import { css } from 'lit';

/** The wire log, a sheet of the element. */
export const wireLogStyles = css`
  .wire-log {
    border-top: 1px solid var(--_border);
    padding: 4px var(--_gap);
    font-size: 0.85em;
  }
  .wire-log summary {
    cursor: pointer;
    color: var(--_muted);
  }
  .wire-lines {
    max-height: 12em;
    overflow: auto;
    margin: 4px 0;
    padding-left: 3em;
    font-family: var(--_mono);
  }
  .wire-line code {
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
  .wire-line.bad {
    color: var(--_danger);
  }
`;
