/** The feedback chunk: everything the element loads for rating answers. */
export { Feedback } from './controller.js';
