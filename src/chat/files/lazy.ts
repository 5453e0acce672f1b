/** The files panel's chunk, loaded once a workspace is set: its renderer and its styles. */
export { renderFilesPanel } from './panel.js';
export { adoptFilesStyles } from './styles.js';
