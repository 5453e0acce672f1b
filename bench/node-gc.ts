/**
 * Makes `globalThis.gc` available in Node (as `--expose-gc` would). Imported by the Node entry points of
 * the benchmarks only.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
(globalThis as { gc?: unknown }).gc ??= runInNewContext('gc');
