/**
 * pagent-web — the SDK: wire codec and client, the in-browser agent, the session store.
 * Never imports lit; imports cleanly in Node 20+ (no DOM globals touched at import time).
 */
export { PagentError, WireDecodeError, HttpError } from './errors.js';
export type { ErrorCode, WireDecodeReason, PagentErrorOptions } from './errors.js';
export * from './wire/index.js';
export * from './agent/index.js';
export * from './store/index.js';
