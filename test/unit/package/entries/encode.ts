// A server that writes other protocols.
export { encodeStream } from '../../../../src/index.js';
