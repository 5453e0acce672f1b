/** The conversation list's chunk, loaded once a store is set: its renderer and its styles. */
export { renderSessionList } from './list.js';
export { adoptListStyles } from './list-styles.js';
