/**
 * Reads the streamed events of Anthropic's Messages API into deltas and one step
 * (https://docs.anthropic.com/en/docs/build-with-claude/streaming). Pure: no I/O, no timers; constant work
 * per event.
 */
import type { Usage } from '../../wire/events.js';
import type { AssembledStep, AssemblerDelta } from './chunk-assembler.js';
import type { StreamReader } from './event-stream-decoder.js';
import type { ReasoningBlock } from '../messages.js';
import type { ModelApiContext } from './model-api.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** One content block as it streams in; `parts` holds text, thinking or tool input JSON by kind. */
interface Block {
  type: string;
  parts: string[];
  /** A tool call's id and name, a thinking block's signature, redacted thinking's data. */
  id: string;
  name: string;
  signature: string;
  data: string;
  /** The tool input of `content_block_start`, for a call whose input streams no JSON. */
  input: unknown;
}

/** `stop_reason` in the words of Chat Completions' `finish_reason` (others are kept as they are). */
const STOP: Record<string, string> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  tool_use: 'tool_calls',
  refusal: 'content_filter',
};

/** An error event's or error body's message: `"Overloaded (overloaded_error)"`. */
export function anthropicErrorMessage(payload: unknown, fallback: (payload: unknown) => string): string {
  const error = isObj(payload) && isObj(payload['error']) ? payload['error'] : undefined;
  if (!error || typeof error['message'] !== 'string') return fallback(payload);
  return typeof error['type'] === 'string' ? `${error['message']} (${error['type']})` : error['message'];
}

/**
 * A reader of one streamed message:
 * - `text` blocks (`text_delta`) → text deltas;
 * - `thinking` blocks (`thinking_delta`, `signature_delta`) → reasoning deltas, a blank line between two
 *   blocks, and, with `redacted_thinking` blocks, `reasoning_blocks` in their order: thinking that `redact`
 *   would change is left out (a changed block no longer matches its signature), and so is one without a
 *   signature;
 * - `tool_use` blocks (`input_json_delta`) → tool calls with their id, the input JSON as it streamed (or
 *   the start block's `input` when none streamed);
 * - `message_start` and `message_delta` → `usage` (the start's, each later count replacing its own field,
 *   as the API sends running totals), `stop_reason` → `finish_reason` (`end_turn` → `stop`, `tool_use` →
 *   `tool_calls`, `max_tokens` → `length`, `refusal` → `content_filter`);
 * - `message_stop` ends the answer; `error` events fail it (`"Overloaded (overloaded_error)"`); `ping`,
 *   `citations_delta` and server-tool blocks are skipped.
 */
export function createAnthropicReader(context: ModelApiContext, redact: (text: string) => string): StreamReader {
  const blocks = new Map<number, Block>();
  const text: string[] = [];
  const reasoning: string[] = [];
  let lastThinking = -1;
  let finish: string | null = null;
  let stopReason: string | null = null;
  let usage: Usage | null = null;

  const think = (index: number, delta: string, out: AssemblerDelta[]): void => {
    if (delta === '') return;
    if (lastThinking !== index && reasoning.length > 0) out.push({ type: 'reasoning', text: '\n\n' });
    lastThinking = index;
    out.push({ type: 'reasoning', text: delta });
  };

  const start = (index: number, cb: Obj, out: AssemblerDelta[]): void => {
    const block: Block = { type: str(cb['type']), parts: [], id: str(cb['id']), name: str(cb['name']), signature: str(cb['signature']), data: str(cb['data']), input: cb['input'] };
    blocks.set(index, block);
    // a block may start with content (a non-streamed message read as events starts whole blocks)
    const first = block.type === 'text' ? str(cb['text']) : block.type === 'thinking' ? str(cb['thinking']) : '';
    if (first === '') return;
    block.parts.push(first);
    if (block.type === 'text') out.push({ type: 'text', text: first });
    else think(index, first, out);
  };

  const delta = (index: number, d: Obj, out: AssemblerDelta[]): void => {
    const block = blocks.get(index);
    if (!block) return;
    switch (d['type']) {
      case 'text_delta': {
        const t = str(d['text']);
        if (t === '' || block.type !== 'text') return;
        block.parts.push(t);
        out.push({ type: 'text', text: t });
        return;
      }
      case 'thinking_delta':
        if (block.type !== 'thinking') return;
        block.parts.push(str(d['thinking']));
        think(index, str(d['thinking']), out);
        return;
      case 'signature_delta':
        block.signature = str(d['signature']);
        return;
      case 'input_json_delta':
        if (block.type === 'tool_use') block.parts.push(str(d['partial_json']));
    }
  };

  const usageFrom = (u: unknown): void => {
    if (!isObj(u)) return;
    const merged: Obj = { ...usage };
    for (const [key, value] of Object.entries(u)) if (value !== null && value !== undefined) merged[key] = value;
    usage = merged;
  };

  return {
    reads: () => true,
    push(payload) {
      const out: AssemblerDelta[] = [];
      if (!isObj(payload)) return out;
      const index = typeof payload['index'] === 'number' ? payload['index'] : -1;
      switch (payload['type']) {
        case 'message_start':
          if (isObj(payload['message'])) usageFrom(payload['message']['usage']);
          break;
        case 'content_block_start':
          if (isObj(payload['content_block'])) start(index, payload['content_block'], out);
          break;
        case 'content_block_delta':
          if (isObj(payload['delta'])) delta(index, payload['delta'], out);
          break;
        case 'message_delta': {
          const d = payload['delta'];
          if (isObj(d) && typeof d['stop_reason'] === 'string') stopReason = d['stop_reason'];
          usageFrom(payload['usage']);
          break;
        }
        case 'message_stop':
          finish = stopReason === null ? 'stop' : (STOP[stopReason] ?? stopReason);
          break;
        case 'error':
          throw new context.PagentError(`Provider error in the stream: ${anthropicErrorMessage(payload, context.providerErrorMessage)}`, { code: 'provider', where: 'llm' });
      }
      for (const d of out) (d.type === 'text' ? text : reasoning).push(d.text);
      return out;
    },
    errorMessage: (payload) => anthropicErrorMessage(payload, context.providerErrorMessage),
    end: () => [],
    result(): AssembledStep {
      const ordered = [...blocks.entries()].sort((a, b) => a[0] - b[0]).map(([, b]) => b);
      const kept: ReasoningBlock[] = [];
      for (const b of ordered) {
        if (b.type === 'redacted_thinking') kept.push({ type: 'redacted_thinking', data: b.data });
        if (b.type !== 'thinking' || b.signature === '') continue;
        const thinking = b.parts.join('');
        if (redact(thinking) === thinking) kept.push({ type: 'thinking', thinking, signature: b.signature });
      }
      const step: AssembledStep = {
        content: text.join(''),
        reasoning_content: reasoning.join(''),
        tool_calls: ordered
          .filter((b) => b.type === 'tool_use')
          .map((b) => ({ id: b.id, type: 'function' as const, function: { name: b.name, arguments: b.parts.join('') || JSON.stringify(b.input ?? {}) } })),
        finish_reason: finish,
        usage,
      };
      if (kept.length > 0) step.reasoning_blocks = kept;
      return step;
    },
    get finished() {
      return finish !== null;
    },
  };
}
