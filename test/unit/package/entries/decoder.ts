// A consumer of the pagent codec and the push decoder only.
export { createWireDecoder, decodeEventLine, encodeEventLine } from '../../../../src/index.js';
