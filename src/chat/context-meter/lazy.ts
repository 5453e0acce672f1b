/** The context meter chunk: everything the element loads for the meter in the composer. */
export { ContextMeter } from './controller.js';
