/** The dictation chunk: everything the element loads for the microphone button. */
export { Dictation } from './controller.js';
