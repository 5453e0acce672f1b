/** The conversation list's chunk, loaded once a store is set: its renderer and its styles. */
export { renderConversationList } from './list.js';
export { adoptListStyles } from './list-styles.js';
