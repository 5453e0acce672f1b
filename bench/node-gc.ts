/**
 * Makes `globalThis.gc` available in Node (as `--expose-gc` would), and keeps V8 from dropping the
 * bytecode of functions a few collections did not see run: benchmarks that collect before every timed
 * call would otherwise time the recompiling of whatever another subject's calls aged out. Imported by
 * the Node entry points of the benchmarks only.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
setFlagsFromString('--no-flush-bytecode');
(globalThis as { gc?: unknown }).gc ??= runInNewContext('gc');
