/** The context meter's styles: a thin bar, the figure shown on hover and focus, a warning colour past 80 %. */
import { createStyleAdopter } from '../adopt-styles.js';

export const adoptStyles = createStyleAdopter(`
  .context-meter {
    --_meter: var(--_accent);
    position: relative;
    display: inline-flex;
    align-items: center;
    align-self: center;
    padding: 6px 2px;
    border-radius: 6px;
    cursor: default;
  }
  .context-meter[data-level='warning'] {
    --_meter: var(--pagent-color-warning, var(--_danger));
  }
  .context-bar {
    display: block;
    inline-size: 44px;
    block-size: 6px;
    border-radius: 3px;
    background: color-mix(in srgb, var(--_muted) 25%, transparent);
    overflow: hidden;
  }
  .context-fill {
    display: block;
    block-size: 100%;
    background: var(--_meter);
  }
  .context-figure {
    position: absolute;
    inset-block-end: calc(100% + 4px);
    inset-inline-end: 0;
    white-space: nowrap;
    padding: 2px 6px;
    border-radius: 6px;
    font-size: 0.8em;
    background: var(--_fg);
    color: var(--_bg);
    visibility: hidden;
    pointer-events: none;
  }
  .context-meter:hover .context-figure,
  .context-meter:focus-visible .context-figure {
    visibility: visible;
  }
  .context-meter:focus-visible {
    outline: 2px solid var(--_focus);
    outline-offset: 2px;
  }
`);
