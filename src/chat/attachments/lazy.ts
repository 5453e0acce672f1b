/** The attachment chunk: everything the element loads when the first file arrives or an attachment is shown. */
export { AttachmentState } from './state.js';
export { adoptStyles } from './styles.js';
