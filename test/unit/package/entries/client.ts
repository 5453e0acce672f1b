// A consumer of WireClient only.
export { WireClient } from '../../../../src/index.js';
