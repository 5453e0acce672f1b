/** The search field's, results' and import's styles: adopted by the shadow root when the chunk loads. */
import { createStyleAdopter } from '../adopt-styles.js';

const styles = `
  .conv-tools {
    position: sticky; top: -6px; z-index: 1; display: flex; gap: 4px; align-items: center;
    margin: -6px -6px 4px; padding: 6px 6px 4px; background: var(--_bg);
  }
  /* focused rows scroll clear of the sticky search field */
  .session-list:has(.conv-tools) { scroll-padding-top: 44px; }
  @container pagent-chat (max-width: 560px) {
    .session-list:has(.conv-tools) { max-height: 11.5em; }
  }
  .conv-search {
    flex: 1; min-width: 0; font: inherit; color: inherit; background: var(--_bg);
    border: 1px solid var(--_border); border-radius: 6px; padding: 4px 8px; min-height: 28px;
  }
  .conv-search:focus-visible { outline: 2px solid var(--_focus); outline-offset: 1px; }
  .conv-error { margin: 4px 6px; color: var(--_danger); overflow-wrap: anywhere; }
  .conv-drop { margin: 4px 6px; color: var(--_accent); font-weight: 600; }
  .session-list.dropping { outline: 2px dashed var(--_accent); outline-offset: -4px; }
  .session-list.has-export .session-date { padding-inline-end: 86px; }
  .search-hit { cursor: pointer; }
  .search-hit[aria-selected='true'] { background: var(--_user-bg); outline: 2px solid var(--_focus); outline-offset: -2px; }
  .search-snippet {
    font-size: 0.85em; color: var(--_muted); overflow: hidden;
    display: -webkit-box; -webkit-line-clamp: 2; -webkit-box-orient: vertical; overflow-wrap: anywhere;
  }
  .search-hit mark { background: color-mix(in srgb, var(--_accent) 28%, transparent); color: inherit; border-radius: 2px; }
  [data-hit] { outline: 2px solid var(--_accent); outline-offset: 4px; border-radius: var(--_radius); transition: outline-color 0.6s; }
`;

/** Adds the tools' styles to a shadow root (once). */
export const adoptStyles = createStyleAdopter(styles);
