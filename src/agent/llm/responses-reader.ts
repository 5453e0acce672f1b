/**
 * Reads the streamed events of OpenAI's Responses API into deltas and one step
 * (https://platform.openai.com/docs/api-reference/responses-streaming). Pure: no I/O, no timers; constant
 * work per event.
 */
import type { Usage } from '../../wire/events.js';
import type { AssembledStep, AssemblerDelta } from './chunk-assembler.js';
import type { StreamReader } from './event-stream-decoder.js';
import type { ReasoningItem } from '../messages.js';
import type { ModelApiContext } from './model-api.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

interface CallItem {
  callId: string;
  name: string;
  args: string[];
  /** The whole arguments, once `function_call_arguments.done` or `output_item.done` gave them. */
  whole: string | undefined;
}
interface ReasoningState {
  id: string;
  summary: string[];
  encrypted: string | undefined;
}

/** `incomplete_details.reason` in the words of Chat Completions' `finish_reason`. */
const INCOMPLETE: Record<string, string> = { max_output_tokens: 'length', content_filter: 'content_filter' };

/**
 * A reader of one streamed response:
 * - `response.output_text.delta` and `response.refusal.delta` → text deltas;
 * - `response.reasoning_summary_text.delta` and `response.reasoning_text.delta` (open-weight models'
 *   raw reasoning) → reasoning deltas, a blank line between two summary parts or items;
 * - `function_call` items (`response.output_item.added`, `response.function_call_arguments.delta`, the
 *   whole arguments of `.done` and of `response.output_item.done`) → tool calls, in output order, with the
 *   item's `call_id` as their id;
 * - `reasoning` items → `reasoning_blocks` (their summaries and `encrypted_content`, redacted by `redact`);
 * - `response.completed` / `response.incomplete` end the answer, with the response's `usage` as given
 *   and `finish_reason` `stop`, `tool_calls`, `length` or `content_filter`; a server that sends only
 *   `response.completed` has its `output` read instead;
 * - `response.failed` and `error` events fail with the provider's message.
 */
export function createResponsesReader(context: ModelApiContext, redact: (text: string) => string): StreamReader {
  const text: string[] = [];
  const reasoning: string[] = [];
  const calls = new Map<string, CallItem>();
  const thoughts = new Map<string, ReasoningState>();
  let lastReasoning = '';
  let finish: string | null = null;
  let usage: Usage | null = null;
  let outputSeen = false;

  const fail = (message: string): never => {
    throw new context.PagentError(`Provider error in the stream: ${message}`, { code: 'provider', where: 'llm' });
  };

  const think = (key: string, delta: string, out: AssemblerDelta[]): void => {
    if (delta === '') return;
    if (lastReasoning !== key && reasoning.length > 0) out.push({ type: 'reasoning', text: '\n\n' });
    lastReasoning = key;
    out.push({ type: 'reasoning', text: delta });
  };

  const addItem = (item: unknown, done: boolean): void => {
    if (!isObj(item) || typeof item['id'] !== 'string') return;
    const id = item['id'];
    if (item['type'] === 'function_call') {
      const call = calls.get(id) ?? { callId: '', name: '', args: [], whole: undefined };
      calls.set(id, call);
      call.callId = str(item['call_id']) || call.callId;
      call.name = str(item['name']) || call.name;
      const args = str(item['arguments']);
      if (done || (args !== '' && call.args.length === 0)) call.whole = args;
    } else if (item['type'] === 'reasoning') {
      const state = thoughts.get(id) ?? { id, summary: [], encrypted: undefined };
      thoughts.set(id, state);
      if (typeof item['encrypted_content'] === 'string') state.encrypted = item['encrypted_content'];
      if (done && Array.isArray(item['summary'])) state.summary = item['summary'].map((s: unknown) => (isObj(s) ? str(s['text']) : ''));
    }
  };

  // A whole item (from a response that streamed no items): its text, reasoning and call as events would give them.
  const readItem = (item: unknown, out: AssemblerDelta[]): void => {
    if (!isObj(item)) return;
    addItem(item, true);
    const parts = item['type'] === 'message' ? item['content'] : item['type'] === 'reasoning' ? item['summary'] : undefined;
    if (!Array.isArray(parts)) return;
    parts.forEach((part: unknown, i) => {
      if (!isObj(part)) return;
      if (item['type'] === 'reasoning') think(`${str(item['id'])}/${i}`, str(part['text']), out);
      else {
        const t = str(part['text']) || str(part['refusal']);
        if (t !== '') out.push({ type: 'text', text: t });
      }
    });
  };

  const complete = (response: unknown, out: AssemblerDelta[]): void => {
    if (!isObj(response)) return;
    if (!outputSeen && Array.isArray(response['output'])) for (const item of response['output']) readItem(item, out);
    if (isObj(response['usage'])) usage = response['usage'];
    const details = response['incomplete_details'];
    const reason = isObj(details) ? INCOMPLETE[str(details['reason'])] ?? str(details['reason']) : '';
    finish = reason || (calls.size > 0 ? 'tool_calls' : 'stop');
  };

  return {
    reads: () => true,
    push(payload) {
      const out: AssemblerDelta[] = [];
      if (!isObj(payload)) return out;
      const e = payload;
      switch (e['type']) {
        case 'response.output_item.added':
        case 'response.output_item.done':
          outputSeen = true;
          addItem(e['item'], e['type'] === 'response.output_item.done');
          break;
        case 'response.output_text.delta':
        case 'response.refusal.delta': {
          const delta = str(e['delta']);
          if (delta !== '') out.push({ type: 'text', text: delta });
          break;
        }
        case 'response.reasoning_summary_text.delta': {
          const id = str(e['item_id']);
          const index = typeof e['summary_index'] === 'number' ? e['summary_index'] : 0;
          const state = thoughts.get(id);
          if (state) state.summary[index] = (state.summary[index] ?? '') + str(e['delta']);
          think(`${id}/${index}`, str(e['delta']), out);
          break;
        }
        case 'response.reasoning_text.delta':
          think(`${str(e['item_id'])}/c${String(e['content_index'])}`, str(e['delta']), out);
          break;
        case 'response.function_call_arguments.delta': {
          const call = calls.get(str(e['item_id']));
          const delta = str(e['delta']);
          if (call && delta !== '') call.args.push(delta);
          break;
        }
        case 'response.function_call_arguments.done': {
          const call = calls.get(str(e['item_id']));
          if (call && typeof e['arguments'] === 'string') call.whole = e['arguments'];
          break;
        }
        case 'response.completed':
        case 'response.incomplete':
          complete(e['response'], out);
          break;
        case 'response.failed': {
          const error = isObj(e['response']) ? e['response']['error'] : undefined;
          fail(isObj(error) ? context.providerErrorMessage(error) : 'the response failed');
          break;
        }
        case 'error':
          fail(context.providerErrorMessage(e));
      }
      for (const d of out) (d.type === 'text' ? text : reasoning).push(d.text);
      return out;
    },
    end: () => [],
    result(): AssembledStep {
      const step: AssembledStep = {
        content: text.join(''),
        reasoning_content: reasoning.join(''),
        tool_calls: [...calls.values()].map((c) => ({ id: c.callId, type: 'function' as const, function: { name: c.name, arguments: c.whole ?? c.args.join('') } })),
        finish_reason: finish,
        usage,
      };
      const blocks: ReasoningItem[] = [...thoughts.values()].map((t) => {
        const item: ReasoningItem = { type: 'reasoning', id: t.id, summary: t.summary.map((s) => ({ type: 'summary_text', text: redact(s) })) };
        if (t.encrypted !== undefined) item.encrypted_content = t.encrypted;
        return item;
      });
      if (blocks.length > 0) step.reasoning_blocks = blocks;
      return step;
    },
    get finished() {
      return finish !== null;
    },
  };
}
