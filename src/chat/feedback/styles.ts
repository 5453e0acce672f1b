/** The feedback chunk's styles: two quiet toggle buttons, the pressed one in the accent colour; the comment form under them. */
import { createStyleAdopter } from '../adopt-styles.js';

export const adoptStyles = createStyleAdopter(`
  .feedback {
    display: inline-flex;
    gap: 2px;
  }
  .feedback button[aria-pressed='true'] {
    color: var(--_accent);
    border-color: var(--_accent);
    background: color-mix(in srgb, var(--_accent) 10%, transparent);
  }
  .feedback-form {
    display: flex;
    flex-wrap: wrap;
    gap: 6px;
    align-items: center;
    inline-size: 100%;
    margin-top: 4px;
  }
  .feedback-form textarea {
    flex: 1 1 16em;
    min-inline-size: 0;
    font: inherit;
    color: inherit;
    background: var(--_bg);
    border: 1px solid var(--_border);
    border-radius: 8px;
    padding: 6px 8px;
    resize: vertical;
  }
`);
