/**
 * The pagent family dialect: pagent and pagentv4 JSON-RPC lines alike, normalised into the events of
 * docs/wire.md#pagent-and-pagentv4.
 */
import { checkEnvelope, isShortRunEnd, parseJsonLine, rpcParamsToEvent } from '../codec.js';
import type { WireDecodeError } from '../../errors.js';
import type { StepSummary, UnknownEvent, WireEvent } from '../events.js';
import type { DialectDecoder } from './index.js';

/** The pagent reader, which also reads a line the decoder has already parsed. */
export interface PagentDialect extends DialectDecoder {
  /** {@link DialectDecoder.decode} of a line whose JSON is already parsed (`message` is `JSON.parse(text)`). */
  decodeParsed(
    message: unknown,
    text: string,
    lineNumber: number,
    onDropped?: (err: WireDecodeError) => void,
  ): Array<WireEvent | UnknownEvent>;
}

/**
 * Creates a pagent-family decoder. Stateless per line except for one thing: pagentv4's
 * `RunEnd{turn, stop_reason}` carries no step summary, so the run's last `StepEnd` (pagentv4's
 * `TurnResult`) fills its `content`, `tool_calls`, `reasoning_content` and `usage` (empty values and
 * `usage: null` when the run had none).
 */
export function createPagentDialect(): PagentDialect {
  let lastStep: StepSummary | undefined;

  function decodeParsed(
    message: unknown,
    text: string,
    lineNumber: number,
    onDropped?: (err: WireDecodeError) => void,
  ): Array<WireEvent | UnknownEvent> {
    const { method, params } = checkEnvelope(message, text, lineNumber);
    const v4RunEnd = isShortRunEnd(method, params);
    const event = rpcParamsToEvent(method, params, text, lineNumber, onDropped);
    if (event === undefined) {
      const unknown: UnknownEvent = { method, params, unknown: true };
      return [unknown];
    }
    return [track(event, v4RunEnd)];
  }

  return {
    decode: (text, lineNumber, onDropped) => decodeParsed(parseJsonLine(text, lineNumber), text, lineNumber, onDropped),
    decodeParsed,
    reset() {
      lastStep = undefined;
    },
  };

  function track(event: WireEvent, v4RunEnd: boolean): WireEvent {
    switch (event.method) {
      case 'RunBegin':
        lastStep = undefined;
        return event;
      case 'StepEnd':
        lastStep = event.params;
        return event;
      case 'RunEnd': {
        const step = lastStep;
        lastStep = undefined;
        if (!v4RunEnd || step === undefined) return event;
        const { content, tool_calls, reasoning_content, usage } = step;
        return { method: 'RunEnd', params: { ...event.params, content, tool_calls, reasoning_content, usage } };
      }
      default:
        return event;
    }
  }
}

