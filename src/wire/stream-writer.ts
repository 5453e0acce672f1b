/**
 * The writer behind `encodeStream` (./encode-stream.ts, which documents it), loaded on its first use.
 */
import type { DialectWriter } from './dialects/writer.js';
import type { EncodeStreamOptions } from './encode-stream.js';
import type { UnknownEvent, WireEvent } from './events.js';

// eventToRpc of ./codec.ts, written out: importing the codec would make bundlers split it into a
// chunk of its own for every entry that decodes.
const toRpc = (event: WireEvent | UnknownEvent): unknown => ({ jsonrpc: '2.0', method: event.method, params: event.params });

function pagentWriter(): DialectWriter {
  return { write: (event) => [toRpc(event)], done: undefined };
}

/** Writes events as another protocol's stream (see `encodeStream`). */
export async function* writeStream(
  events: AsyncIterable<WireEvent | UnknownEvent>,
  options: EncodeStreamOptions,
): AsyncGenerator<string, void, undefined> {
  const { dialect } = options;
  const sse = (options.format ?? (dialect === 'pagent' ? 'ndjson' : 'sse')) === 'sse';
  // The AG-UI and AI SDK writers are loaded when first used, so an Agent that only writes pagent lines
  // (or never writes) does not carry them.
  const writer =
    dialect === 'ag-ui'
      ? (await import('./dialects/ag-ui-encode.js')).createAgUiWriter()
      : dialect === 'ai-sdk'
        ? (await import('./dialects/ai-sdk-encode.js')).createAiSdkWriter()
        : pagentWriter();
  const frame = (doc: unknown): string => (sse ? `data: ${JSON.stringify(doc)}\n\n` : `${JSON.stringify(doc)}\n`);

  let runOpen = false;
  let failed = false;
  let content = '';
  let reasoning = '';

  /** Closes the open run as failed: its `RunError` (unless it carried one) and a `RunEnd` with the partial answer. */
  function* closeFailed(message: string): Generator<string> {
    if (!runOpen) return;
    const closing: WireEvent[] = [];
    if (!failed) closing.push({ method: 'RunError', params: { message, code: 'truncated' } });
    closing.push({ method: 'RunEnd', params: { content, tool_calls: [], reasoning_content: reasoning, usage: null, stop_reason: 'error' } });
    for (const event of closing) yield* emit(event);
  }

  function* emit(event: WireEvent): Generator<string> {
    switch (event.method) {
      case 'RunBegin':
        runOpen = true;
        failed = false;
        content = reasoning = '';
        break;
      case 'TurnBegin':
      case 'ToolResult':
        content = '';
        if (event.method === 'TurnBegin') reasoning = '';
        break;
      case 'TextDelta':
        content += event.params.text;
        break;
      case 'ReasoningDelta':
        reasoning += event.params.text;
        break;
      case 'RunError':
        failed = true;
        break;
      case 'RunEnd':
        runOpen = false;
        break;
    }
    for (const doc of writer.write(event)) yield frame(doc);
  }

  try {
    for await (const event of events) {
      if ('unknown' in event && event.unknown === true) {
        if (dialect === 'pagent') yield frame(toRpc(event));
        continue;
      }
      const known = event as WireEvent;
      if (known.method === 'RunBegin') yield* closeFailed('A new run began before this one ended');
      else if (!runOpen) yield* emit({ method: 'RunBegin', params: { user_input: '' } });
      yield* emit(known);
    }
  } catch (err) {
    yield* closeFailed(`The event stream failed: ${err instanceof Error ? err.message : String(err)}`);
    throw err;
  }
  yield* closeFailed('The event stream ended before the run did');
  if (sse && writer.done !== undefined) yield `data: ${writer.done}\n\n`;
}
