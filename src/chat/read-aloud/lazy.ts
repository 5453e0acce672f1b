/** The read-aloud chunk: everything the element loads for speaking answers. */
export { ReadAloud } from './controller.js';
