/** The conversation tools chunk: search, export and import, loaded once the conversation list shows. */
export { ConversationTools } from './search.js';
export { adoptStyles } from './styles.js';
export { revealMessage } from './message-target.js';
