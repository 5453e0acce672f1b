/** The read-aloud chunk's styles: the sentence being spoken is underlined softly in the accent colour. */
import { createStyleAdopter } from '../adopt-styles.js';

export const adoptStyles = createStyleAdopter(`
  [part~='speaking'] {
    background: color-mix(in srgb, var(--_accent) 14%, transparent);
    box-shadow: 0 0 0 2px color-mix(in srgb, var(--_accent) 14%, transparent);
    border-radius: 3px;
  }
  [part~='read-aloud-button'][aria-pressed='true'] {
    color: var(--_accent);
    border-color: var(--_accent);
  }
`);
