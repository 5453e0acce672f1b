/**
 * Which dialect a stream speaks, and its reader: the pagent reader is always at hand; the others are
 * loaded on first use (each its own chunk for a bundler), so a consumer of pagent streams never
 * downloads them.
 */
import { WireDecodeError } from '../../errors.js';
import { has as hasOwn, isObject } from '../events.js';
import type { DialectDecoder, DialectName } from './index.js';
import { createPagentDialect } from './pagent.js';

/** The UI message parts of the AI SDK, by `type` (besides `data-*`). */
const AI_SDK_TYPE =
  /^(start|finish|abort|file|message-metadata|(start|finish)-step|(text|reasoning)-(start|delta|end)|tool-input-(start|delta|available|error)|tool-approval-request|tool-output-(available|error|denied)|source-(url|document))$/;

/**
 * Tells the dialect from one document: a JSON-RPC envelope (`jsonrpc` or `method`) is `pagent`;
 * `{"v": …, "event": …}` is `victor`; an upper-case `type` (`RUN_STARTED`, `TEXT_MESSAGE_CONTENT`, …) is
 * `ag-ui`; a UI message part `type` (`start`, `text-delta`, `data-*`, …, or `error` with `errorText`) is
 * `ai-sdk`; any other string `type` is Victor's legacy shape. Returns `undefined` for anything else,
 * invalid JSON included.
 */
export function detectDialect(text: string): DialectName | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(parsed)) return undefined;
  const doc = parsed;
  const has = (key: string): boolean => hasOwn(doc, key);
  if (has('jsonrpc') || has('method')) return 'pagent';
  if (has('v') && has('event')) return 'victor';
  const type = doc['type'];
  if (typeof type !== 'string') return undefined;
  if (/^[A-Z][A-Z0-9_]*$/.test(type)) return 'ag-ui';
  if (AI_SDK_TYPE.test(type) || type.startsWith('data-') || (type === 'error' && has('errorText'))) return 'ai-sdk';
  return 'victor';
}

type Factory = () => DialectDecoder;

const factories: Partial<Record<DialectName, Factory>> = { pagent: createPagentDialect };
const loads: Partial<Record<DialectName, Promise<void>>> = {};

/** The reader factory for `name` when it is loaded, else `undefined` (see {@link loadDialect}). */
export function loadedDialect(name: DialectName): Factory | undefined {
  return factories[name];
}

/**
 * Loads the reader of a dialect once; from then on every decoder reads that dialect synchronously.
 * `createWireDecoder` loads a reader itself when it first meets (or is told) its dialect and holds the
 * documents until then (`decoder.loading`); call this first to have a push decoder deliver events of
 * Victor, AG-UI or AI SDK streams within `feed()`. A failed load can be retried.
 *
 * @example
 * await loadDialect('victor');
 * const decoder = createWireDecoder({ dialect: 'victor', onEvent });
 */
export function loadDialect(name: DialectName): Promise<void> {
  if (factories[name]) return Promise.resolve();
  const load =
    name === 'victor'
      ? import('./victor.js').then((m) => () => m.createVictorDialect(WireDecodeError))
      : name === 'ag-ui'
        ? import('./ag-ui.js').then((m) => () => m.createAgUiDialect(WireDecodeError))
        : import('./ai-sdk.js').then((m) => () => m.createAiSdkDialect(WireDecodeError));
  return (loads[name] ??= load.then(
    (factory) => void (factories[name] = factory),
    (err: unknown) => {
      delete loads[name];
      throw err;
    },
  ));
}
