/** The files panel's styles: adopted by the shadow root when the panel's chunk loads. */
import { createStyleAdopter } from '../adopt-styles.js';

/** Adds the files panel's styles to a shadow root (once). */
export const adoptFilesStyles = createStyleAdopter(`
  .files {
    border-top: 1px solid var(--_border);
    padding: 4px 8px;
    max-height: 9.5em;
    overflow: auto;
    font-size: 0.9em;
  }
  .files summary {
    cursor: pointer;
    color: var(--_muted);
  }
  .files-empty {
    margin: 4px 0;
    color: var(--_muted);
  }
  .files-list {
    list-style: none;
    margin: 4px 0 0;
    padding: 0;
  }
  .file {
    display: flex;
    align-items: center;
    gap: 6px;
    padding: 2px 0;
  }
  .file-path {
    flex: 1;
    min-width: 0;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
    font-family: var(--_mono);
  }
  .file-size {
    color: var(--_muted);
    white-space: nowrap;
  }
`);
