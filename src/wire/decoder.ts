/**
 * The sync push decoder: bytes → documents → dialect → events, with the termination contract of
 * docs/wire.md#runs-and-the-termination-contract. No timers, no I/O; the async adapters own time.
 */
import { WireDecodeError, errorMessage } from '../errors.js';
import { canonicalTextDelta, parseJsonLine, plainTextDelta } from './codec.js';
import type { DialectDecoder, DialectName } from './dialects/index.js';
import { createPagentDialect, type PagentDialect } from './dialects/pagent.js';
import { detectDialect, loadDialect, loadedDialect } from './dialects/registry.js';
import { failedRunEvents, type StepSummary, type UnknownEvent, type WireEvent } from './events.js';
import type { WireDecoder, WireDecoderOptions } from './decoder-options.js';
import { createFraming, DEFAULT_MAX_LINE_BYTES } from './framing.js';

export type { WireDecoder, WireDecoderOptions } from './decoder-options.js';

type Emitted = WireEvent | UnknownEvent;

/** What a cut run's `RunEnd` reports, built from the events the run emitted (docs/wire.md#events: `RunEnd.content`). */
interface RunState {
  turn: number | undefined;
  /** The run's one `RunError`, held until the run closes: it comes right before the end (docs/wire.md#runs-and-the-termination-contract). */
  error: (WireEvent & { method: 'RunError' }) | undefined;
  /** The messages joined into `error`, so a repeated one is not added twice. */
  errorMessages: Set<string>;
  /** A `TurnEnd` that arrived while an error was held: the closing one if `RunEnd` comes next. */
  turnEnd: (WireEvent & { method: 'TurnEnd' }) | undefined;
  /** The step in flight's text and reasoning. */
  text: TextBuffer;
  reasoning: TextBuffer;
  step: StepSummary | undefined;
}

/** Text kept for a cut run's `RunEnd`, added a delta at a time. */
interface TextBuffer {
  add(text: string): void;
  toString(): string;
}

/**
 * A {@link TextBuffer} in flat blocks: every 64 pieces are joined into one string, so a long answer holds
 * a few thousand flat strings rather than a piece (or a rope node) per delta, which the garbage collector
 * would copy and walk again and again (kept as a `+=` rope instead, a 200,000-delta run decodes 8-13 %
 * slower). The pieces go in one array reused for every block. Each character is copied twice in all.
 */
function textBuffer(): TextBuffer {
  const blocks: string[] = [];
  const pieces: string[] = [];
  let count = 0;
  return {
    add(text) {
      pieces[count++] = text;
      if (count === 64) {
        blocks.push(pieces.join(''));
        count = 0;
      }
    },
    toString: () => blocks.join('') + pieces.slice(0, count).join(''),
  };
}

const newRun = (): RunState => ({
  turn: undefined,
  error: undefined,
  errorMessages: new Set(),
  turnEnd: undefined,
  text: textBuffer(),
  reasoning: textBuffer(),
  step: undefined,
});

/**
 * Creates the sync push decoder: `feed(chunk)` any number of times, then `end()` (EOF) or `cancel()`
 * (abort). Chunk boundaries never matter. Every event is delivered to `onEvent` in order, and the
 * run contract holds: an event outside a run opens one with `RunBegin{user_input: ""}`; every run
 * ends with exactly one `RunEnd`, always last, and carries at most one `RunError`; a `RunBegin` while a
 * run is open first closes it as truncated. A bad document goes to `onDecodeError` and is skipped;
 * unknown methods are skipped (or delivered with `includeUnknown`). No `TurnEnd` is ever invented.
 *
 * A failure's `RunError` always comes right before the run's end, whatever the server's order: a
 * `RunError` is held, and the events the server sends after it (text, tools, turns) are delivered as they
 * come; the held error is delivered when the run closes, just before its `RunEnd`, or before the closing
 * `TurnEnd` when one is followed by the `RunEnd` (a `TurnEnd` after a held error waits for the next event
 * to know). A second `RunError` in the run adds its message to the first (`"first; second"`, repeats
 * skipped); code, status and where stay the first's. When the core closes the run itself (EOF, stall,
 * network, a new `RunBegin`, and also cancel) a held error is delivered and is the run's one `RunError`:
 * the core adds none of its own, and the `RunEnd` says `stop_reason: "error"` — a run that carries a
 * `RunError` failed, even when the abort came later.
 *
 * @example
 * const decoder = createWireDecoder({ onEvent: (e) => console.log(e.method) });
 * decoder.feed(new TextEncoder().encode('{"jsonrpc": "2.0", "method": "TextDelta", "params": {"text": "Hi"}}\n'));
 * decoder.end(); // RunBegin, TextDelta, RunError{truncated}, RunEnd{error}
 */
export function createWireDecoder(
  options: WireDecoderOptions & { includeUnknown: true; onEvent: (event: WireEvent | UnknownEvent) => void },
): WireDecoder;
export function createWireDecoder(
  options: WireDecoderOptions & { includeUnknown?: false | undefined; onEvent: (event: WireEvent) => void },
): WireDecoder;
export function createWireDecoder(
  options: WireDecoderOptions & { onEvent: (event: WireEvent | UnknownEvent) => void },
): WireDecoder;
export function createWireDecoder(
  options: WireDecoderOptions & { onEvent(event: WireEvent | UnknownEvent): void },
): WireDecoder {
  const { onEvent, onLine, onDecodeError, includeUnknown = false } = options;
  const forced = options.dialect === undefined || options.dialect === 'auto' ? undefined : options.dialect;
  let dialect: DialectDecoder | undefined;
  let fallback: DialectDecoder | undefined;
  /** The reader in use when it is pagent's: a delta is then read in one step where it can be ({@link deliverDelta}). */
  let pagent: PagentDialect | undefined;
  let closed = false;
  let run: RunState | undefined;
  let decodedDocuments = 0;
  let decodeErrors = 0;
  let firstError: WireDecodeError | undefined;
  /** Documents and calls waiting for a reader to load, in order; `undefined` when none loads. */
  let waiting: Array<() => void> | undefined;
  let loading: Promise<void> | undefined;

  const framing = createFraming({
    format: options.format ?? 'auto',
    maxLineBytes: options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
    onDocument: handleDocument,
    onTooLong: (err) => later(() => reportError(err)),
  });

  if (forced) use(forced);

  /** Switches to the reader of `name`, loading it first (and holding what comes meanwhile) if need be. */
  function use(name: DialectName): void {
    if (name === 'pagent') {
      dialect = pagent = createPagentDialect();
      return;
    }
    const factory = loadedDialect(name);
    if (factory) {
      dialect = factory();
      return;
    }
    waiting = [];
    loading = loadDialect(name).then(
      () => void (dialect = loadedDialect(name)!()),
      (err: unknown) => {
        const message = `The ${name} reader could not be loaded: ${errorMessage(err)}`;
        dialect = {
          decode(text, lineNumber) {
            throw new WireDecodeError('not-an-event', message, text, lineNumber, err);
          },
          reset() {},
        };
      },
    ).then(() => {
      const held = waiting!;
      waiting = undefined;
      loading = undefined;
      for (const op of held) op();
    });
  }

  /** Runs `op` now, or after the reader being loaded, behind what already waits for it. */
  function later(op: () => void): void {
    if (waiting) waiting.push(op);
    else op();
  }

  function reportError(err: WireDecodeError): void {
    decodeErrors++;
    firstError ??= err;
    onDecodeError?.(err);
  }

  /** A mistyped optional field was left out: reported, but the document still decoded (docs/wire.md#bad-input). */
  function reportDropped(err: WireDecodeError): void {
    onDecodeError?.(err);
  }

  function handleDocument(text: string, number: number): void {
    if (waiting) {
      waiting.push(() => handleDocument(text, number));
      return;
    }
    if (closed) return;
    let decoder = dialect;
    if (decoder === undefined) {
      const name = detectDialect(text);
      if (name !== undefined) {
        use(name);
        if (waiting) return handleDocument(text, number);
        decoder = dialect!;
      } else decoder = fallback ??= createPagentDialect();
    }
    onLine?.(text);
    let events: Emitted[];
    try {
      if (decoder === pagent) {
        // the commonest line first, in one step (docs/wire.md#pagent-and-pagentv4)
        const ready = deltaReady();
        if (ready && deliverDelta(canonicalTextDelta(text))) return;
        const message = parseJsonLine(text, number);
        if (ready && deliverDelta(plainTextDelta(message))) return;
        events = pagent.decodeParsed(message, text, number, reportDropped);
      } else events = decoder.decode(text, number, reportDropped);
    } catch (err) {
      if (!(err instanceof WireDecodeError)) throw err;
      reportError(err);
      return;
    }
    decodedDocuments++;
    for (const event of events) {
      if (closed) return;
      handleEvent(event);
    }
  }

  /**
   * Whether a `TextDelta` can be delivered as soon as it is read, as {@link handleEvent} would: a run is
   * open and holds nothing back (no step ended since, no `TurnEnd` held behind an error). The general
   * path's calls, arrays and switches cost a tenth of the decoder's time on such lines.
   */
  function deltaReady(): boolean {
    return run !== undefined && run.step === undefined && run.turnEnd === undefined;
  }

  /** Keeps and delivers a well-formed delta's params (see {@link deltaReady}); `false` when there are none. */
  function deliverDelta(params: { text: string } | undefined): boolean {
    if (params === undefined) return false;
    decodedDocuments++;
    run!.text.add(params.text);
    onEvent({ method: 'TextDelta', params });
    return true;
  }

  function handleEvent(event: Emitted): void {
    if (event.method !== 'RunEnd') releaseTurnEnd();
    if ('unknown' in event) {
      if (includeUnknown) onEvent(event);
      return;
    }
    if (event.method === 'RunBegin') {
      if (run) closeRun('error', { code: 'truncated', message: 'A new run began before this one ended' });
      run = newRun();
      onEvent(event);
      return;
    }
    if (!run) {
      run = newRun();
      onEvent({ method: 'RunBegin', params: { user_input: '' } });
    }
    const state = run;
    switch (event.method) {
      case 'TurnBegin':
        state.turn = event.params.turn;
        state.text = textBuffer();
        state.reasoning = textBuffer();
        state.step = undefined;
        break;
      case 'TextDelta':
      case 'ReasoningDelta':
        if (state.step) {
          // a delta after StepEnd belongs to a new step in flight
          state.step = undefined;
          state.text = textBuffer();
          state.reasoning = textBuffer();
        }
        (event.method === 'TextDelta' ? state.text : state.reasoning).add(event.params.text);
        break;
      case 'StepEnd':
        state.step = event.params;
        break;
      case 'ToolResult':
        // a turn without a step summary (Victor): the answer is the text since the last tool result
        if (!state.step) state.text = textBuffer();
        break;
      case 'TurnEnd':
        if (state.error) {
          state.turnEnd = event;
          return;
        }
        break;
      case 'RunError':
        if (!state.error) state.error = { method: 'RunError', params: { ...event.params } };
        else if (!state.errorMessages.has(event.params.message)) state.error.params.message += `; ${event.params.message}`;
        state.errorMessages.add(event.params.message);
        return;
      case 'RunEnd':
        run = undefined;
        deliverHeld(state);
        onEvent(event);
        return;
    }
    onEvent(event);
  }

  /** A `TurnEnd` held behind an error was not the closing one: deliver it in its place. */
  function releaseTurnEnd(): void {
    const held = run?.turnEnd;
    if (!held || !run) return;
    run.turnEnd = undefined;
    onEvent(held);
  }

  /** The end of a run: its held `RunError`, then the closing `TurnEnd` held behind it. */
  function deliverHeld(state: RunState): void {
    if (state.error) onEvent(state.error);
    if (state.turnEnd) onEvent(state.turnEnd);
  }

  /**
   * Closes the open run: its held `RunError`, or else the core's own `error` (if any), then the held
   * `TurnEnd`, then its `RunEnd` (`stop_reason: "error"` whenever a `RunError` was delivered).
   */
  function closeRun(stopReason: 'error' | 'cancelled', error?: { code: string; message: string }): void {
    const state = run;
    if (!state) return;
    if (!state.error && error) state.error = { method: 'RunError', params: { message: error.message, code: error.code } };
    if (state.error) stopReason = 'error';
    run = undefined;
    deliverHeld(state);
    const step = state.step;
    const end: WireEvent & { method: 'RunEnd' } = {
      method: 'RunEnd',
      params: step
        ? {
            content: step.content,
            tool_calls: step.tool_calls,
            reasoning_content: step.reasoning_content,
            usage: step.usage,
            stop_reason: stopReason,
          }
        : {
            content: String(state.text),
            tool_calls: [],
            reasoning_content: String(state.reasoning),
            usage: null,
            stop_reason: stopReason,
          },
    };
    if (state.turn !== undefined) end.params.turn = state.turn;
    onEvent(end);
  }

  function closeAll(): void {
    closed = true;
    dialect?.reset();
    fallback?.reset();
  }

  /** No more input: `end()`, `cancel()` or `fail()` was called (their effect may wait for a reader). */
  let stopped = false;

  return {
    feed(chunk) {
      if (!stopped) framing.push(chunk);
    },
    end() {
      if (stopped) return;
      stopped = true;
      framing.end();
      later(() => {
        if (closed) return;
        closed = true;
        if (run) {
          closeRun('error', { code: 'truncated', message: 'The stream ended before the run did (no RunEnd)' });
        } else if (decodedDocuments === 0 && (decodeErrors > 0 || framing.garbageLines > 0)) {
          for (const event of failedRunEvents({ code: 'decode', message: describeUndecodable() })) onEvent(event);
        }
        closeAll();
      });
    },
    cancel() {
      stopped = true;
      later(() => {
        if (closed) return;
        closed = true;
        closeRun('cancelled');
        closeAll();
      });
    },
    fail(code, message) {
      if (stopped && !waiting) return;
      later(() => {
        if (closed || !run) return;
        stopped = closed = true;
        closeRun('error', { code, message });
        closeAll();
      });
    },
    get runOpen() {
      return run !== undefined;
    },
    get loading() {
      return loading;
    },
  };

  function describeUndecodable(): string {
    const head = framing.head.trimEnd();
    const looks = /^<(!doctype|html|\?xml|head|body)/i.test(head)
      ? 'an HTML/XML page'
      : `${framing.format === 'sse' ? 'SSE' : 'NDJSON'} with no decodable event`;
    const start = head === '' ? '' : `; it starts with ${JSON.stringify(head.length > 80 ? head.slice(0, 80) + '…' : head)}`;
    const errors = decodeErrors > 0 ? `; ${decodeErrors} bad document${decodeErrors === 1 ? '' : 's'}, first: ${firstError?.message}` : '';
    return `No wire event could be decoded: the body is ${looks}${start}${errors}`;
  }
}
