/** The conversation list's tools chunk: search, export and import, loaded once the conversation list shows. */
export { ListTools } from './list-tools.js';
export { adoptStyles } from './styles.js';
export { revealMessage } from './message-target.js';
