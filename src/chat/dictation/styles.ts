/** The dictation chunk's styles: the microphone button, red and pulsing while it listens; the status and error line. */
import { createStyleAdopter } from '../adopt-styles.js';

export const adoptStyles = createStyleAdopter(`
  [part~='dictation-button'][aria-pressed='true'] {
    color: var(--_danger);
    border-color: var(--_danger);
    animation: pagent-listening 1.2s ease-in-out infinite;
  }
  @keyframes pagent-listening {
    50% { box-shadow: 0 0 0 4px color-mix(in srgb, var(--_danger) 25%, transparent); }
  }
  @media (prefers-reduced-motion: reduce) {
    [part~='dictation-button'][aria-pressed='true'] { animation: none; }
  }
  .dictation-status {
    order: 1;
    inline-size: 100%;
    margin: 0;
    font-size: 0.85em;
    color: var(--_muted);
  }
  .dictation-status[part~='dictation-error'] {
    color: var(--_danger);
  }
`);
