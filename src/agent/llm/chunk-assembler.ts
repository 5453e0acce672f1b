/**
 * The chunk assembler: turns the `chat.completion.chunk` objects of an OpenAI-compatible stream into text
 * and reasoning deltas plus one assembled step, tolerating what real providers send (see {@link createChunkAssembler}).
 * Pure and incremental: no I/O, no timers, constant work per fragment received.
 */
import { PagentError } from '../../errors.js';
import type { ToolCall, Usage } from '../../wire/events.js';
import type { ReasoningBlock } from '../messages.js';
import { createEventStreamDecoder, providerErrorMessage, type EventStreamDecoderOptions, type StreamDecoder } from './event-stream-decoder.js';

export { DEFAULT_MAX_EVENT_BYTES, providerErrorMessage, type CompletionEnd } from './event-stream-decoder.js';

/**
 * One model step, assembled from a stream: what pagent's `StepEnd` carries plus the finish reason (and, for
 * the Responses and Anthropic Messages APIs, the reasoning they need back).
 */
export interface AssembledStep {
  content: string;
  reasoning_content: string;
  tool_calls: ToolCall[];
  /**
   * The provider's last non-null `finish_reason`, verbatim (`"stop"` may come with tool calls). The
   * Responses and Anthropic Messages readers map their own stop reasons onto these words: `stop`, `length`,
   * `tool_calls`, `content_filter`.
   */
  finish_reason: string | null;
  /** The last non-null usage the provider sent, as given. */
  usage: Usage | null;
  /** The reasoning to send back to the API that produced it (see `AssistantMessage.reasoning_blocks`); never set for Chat Completions. */
  reasoning_blocks?: ReasoningBlock[];
}

/** A delta produced while assembling: a non-empty piece of answer text or reasoning. */
export type AssemblerDelta = { type: 'text'; text: string } | { type: 'reasoning'; text: string };

/** Counters that let tests check the assembler's work is linear (they count units of work, not time). */
export interface AssemblerStats {
  /** Chunk objects pushed. */
  chunks: number;
  /** Units of work done: one per choice, content part, reasoning field, tool-call fragment or usage read. */
  work: number;
}

/** An incremental assembler for one streamed completion (choice 0). */
export interface ChunkAssembler {
  /**
   * Applies one parsed chunk object and returns the deltas it carried, in order (maybe none).
   * Throws a `PagentError` with code `"provider"` when the chunk is an error object (a top-level `error`);
   * such a chunk is not applied. Non-object chunks and choices other than 0 are ignored.
   */
  push(chunk: unknown): AssemblerDelta[];
  /**
   * Ends the step and returns the deltas of the few characters held back while they could still be the
   * start of a `<think>` or `</think>` tag (see {@link ChunkAssemblerOptions.reasoningTags}); maybe none.
   * Calling it again returns none.
   */
  end(): AssemblerDelta[];
  /**
   * The step as assembled so far, as if it ended now: held-back characters are included as {@link end}
   * would emit them (cheap to call repeatedly; strings are joined once per change).
   */
  result(): AssembledStep;
  /** Whether a `finish_reason` has been seen. */
  readonly finished: boolean;
  /** Work counters. */
  readonly stats: AssemblerStats;
}

interface CallSlot {
  index: number | undefined;
  id: string;
  name: string;
  args: string[];
}

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const nonEmpty = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** Options of {@link createChunkAssembler}. */
export interface ChunkAssemblerOptions {
  /**
   * Split reasoning that a model writes into the content as `<think>…</think>` (DeepSeek-R1 distills, QwQ,
   * Qwen3… served by vLLM, SGLang, llama.cpp, Ollama or LM Studio without a reasoning parser). Only when
   * the step's content starts with `<think>` (leading whitespace allowed): the text up to `</think>` becomes
   * reasoning, the tags and the whitespace right after each of them are dropped, the rest is content. Content
   * that starts with `</think>` (an empty think block whose opening tag the chat template prefilled) drops
   * that tag and the whitespace after it. A `<think>` later in the text, `<thinking>` and the like stay
   * content verbatim. When `</think>` never arrives, everything after `<think>` stays reasoning (a step cut
   * off while thinking has no answer). Not handled: reasoning with only a closing tag after it
   * (`reasoning</think>answer`), because telling it from an answer would mean holding back unbounded text;
   * it stays content. Not applied when the provider sends reasoning in its own fields before any content
   * (it already separated them). At most 7 characters (or leading whitespace, up to 256 characters) are
   * held back while they could still be a tag; {@link ChunkAssembler.end} releases them.
   * `false` keeps the content verbatim. @defaultValue true
   */
  reasoningTags?: boolean | undefined;
}

const OPEN_TAG = '<think>';
const CLOSE_TAG = '</think>';
/** The most leading whitespace held back before deciding the content does not start with a tag. */
const MAX_LEADING_SPACE = 256;
const LEADING_SPACE = /^\s*/;

/** Where the content of a step stands relative to a leading think block. */
type TagMode = 'start' | 'open' | 'think' | 'after' | 'text';

// The length of the longest suffix of `text` that is a proper prefix of `tag`.
const partialTagAtEnd = (text: string, tag: string): number => {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) if (text.endsWith(tag.slice(0, n))) return n;
  return 0;
};

// Calls in `index` order when every call has one (a stable sort keeps reused indexes in arrival order).
const ordered = (slots: CallSlot[]): CallSlot[] =>
  slots.every((s) => s.index !== undefined) ? [...slots].sort((a, b) => (a.index ?? 0) - (b.index ?? 0)) : slots;

/**
 * Creates an assembler for one streamed chat completion. Provider quirks handled:
 * - `role` missing, repeated or sent on every chunk (ignored);
 * - `content` null, `""`, a string, or an array of parts (`"text"` strings or `{type: "text", text}`);
 * - reasoning as `reasoning_content` (DeepSeek, vLLM), `reasoning` (OpenRouter, Cerebras, Ollama) or
 *   `reasoning_details` (OpenRouter: `reasoning.text` / `reasoning.summary` items); per delta the first
 *   non-empty of the three is used, so a provider that mirrors the same text in several fields counts once;
 * - tool calls fragmented by `index`, sent whole in one chunk, several in one delta, without `index`
 *   (Mistral: a new non-empty `id` starts a call, fragments without one continue the last call), with `""`
 *   ids or names on continuation fragments (ignored), with an `index` reused by a call with a new `id`
 *   (a new call), with `arguments` sent as an object (JSON-stringified); `type` is always `"function"`;
 *   calls come out in `index` order (arrival order when some call has no index);
 * - `usage` in a final `choices: []` chunk, in every chunk, `null` after a real value (the real one is kept),
 *   inside the choice (Moonshot) or only in `x_groq.usage` (Groq);
 * - `finish_reason` missing, repeated (the last non-null wins) or `"stop"` with tool calls (kept verbatim);
 * - Azure's prompt-filter chunk (`choices: []` with `prompt_filter_results`) and any chunk without choices;
 * - a full `message` instead of `delta` (servers that ignore `stream: true` and answer with one JSON object);
 * - reasoning written into the content as a leading `<think>…</think>` block, split at any character
 *   (see {@link ChunkAssemblerOptions.reasoningTags}; call {@link ChunkAssembler.end} when the step ends).
 */
export function createChunkAssembler(options: ChunkAssemblerOptions = {}): ChunkAssembler {
  let mode: TagMode = options.reasoningTags === false ? 'text' : 'start';
  // 'start': the content so far (whitespace, maybe the start of a tag); 'think': a possible partial `</think>`.
  let held = '';
  const content: string[] = [];
  const reasoning: string[] = [];
  const slots: CallSlot[] = [];
  const byIndex = new Map<number, CallSlot>();
  const byId = new Map<string, CallSlot>();
  let finishReason: string | null = null;
  let usage: Usage | null = null;
  let cached: AssembledStep | undefined;
  const stats: AssemblerStats = { chunks: 0, work: 0 };

  const newSlot = (index: number | undefined): CallSlot => {
    const slot: CallSlot = { index, id: '', name: '', args: [] };
    slots.push(slot);
    if (index !== undefined) byIndex.set(index, slot);
    return slot;
  };

  const slotFor = (fragment: Obj): CallSlot => {
    const id = nonEmpty(fragment['id']);
    const index = typeof fragment['index'] === 'number' ? fragment['index'] : undefined;
    if (index !== undefined) {
      const slot = byIndex.get(index);
      // Some servers reuse one index for parallel calls; a different id means a different call.
      if (slot && !(id !== undefined && slot.id !== '' && slot.id !== id)) return slot;
      return newSlot(index);
    }
    if (id !== undefined) return byId.get(id) ?? newSlot(undefined);
    return slots[slots.length - 1] ?? newSlot(undefined);
  };

  const applyToolCall = (fragment: unknown): void => {
    stats.work++;
    if (!isObj(fragment)) return;
    const slot = slotFor(fragment);
    const id = nonEmpty(fragment['id']);
    if (id !== undefined && slot.id === '') {
      slot.id = id;
      byId.set(id, slot);
    }
    const fn = fragment['function'];
    if (!isObj(fn)) return;
    const name = nonEmpty(fn['name']);
    if (name !== undefined) slot.name = name;
    const args = fn['arguments'];
    if (typeof args === 'string') {
      if (args !== '') slot.args.push(args);
    } else if (isObj(args) || Array.isArray(args)) {
      slot.args.push(JSON.stringify(args));
    }
  };

  const reasoningText = (delta: Obj): string | undefined => {
    const direct = nonEmpty(delta['reasoning_content']) ?? nonEmpty(delta['reasoning']);
    if (direct !== undefined) return direct;
    const details = delta['reasoning_details'];
    if (!Array.isArray(details)) return undefined;
    let text = '';
    for (const item of details) {
      stats.work++;
      if (!isObj(item)) continue;
      text += nonEmpty(item['text']) ?? nonEmpty(item['summary']) ?? '';
    }
    return text === '' ? undefined : text;
  };

  const think = (text: string, out: AssemblerDelta[]): void => {
    const at = text.indexOf(CLOSE_TAG);
    if (at >= 0) {
      if (at > 0) out.push({ type: 'reasoning', text: text.slice(0, at) });
      held = '';
      mode = 'after';
      afterThink(text.slice(at + CLOSE_TAG.length), out);
      return;
    }
    const keep = partialTagAtEnd(text, CLOSE_TAG);
    if (text.length > keep) out.push({ type: 'reasoning', text: text.slice(0, text.length - keep) });
    held = text.slice(text.length - keep);
  };

  // Right after `<think>`: whitespace is dropped, so an empty block (`<think>\n\n</think>`) has no reasoning.
  const opened = (text: string, out: AssemblerDelta[]): void => {
    const rest = text.replace(LEADING_SPACE, '');
    if (rest === '') return;
    mode = 'think';
    think(rest, out);
  };

  const afterThink = (text: string, out: AssemblerDelta[]): void => {
    const rest = text.replace(LEADING_SPACE, '');
    if (rest === '') return;
    mode = 'text';
    out.push({ type: 'text', text: rest });
  };

  // Decides, from the first characters of the step's content, whether it opens with a think tag.
  const start = (text: string, out: AssemblerDelta[]): void => {
    held += text;
    const space = LEADING_SPACE.exec(held)?.[0].length ?? 0;
    const head = held.slice(space);
    if (head === '') {
      if (held.length > MAX_LEADING_SPACE) plain(out);
      return;
    }
    if (head.startsWith(OPEN_TAG)) {
      held = '';
      mode = 'open';
      opened(head.slice(OPEN_TAG.length), out);
    } else if (head.startsWith(CLOSE_TAG)) {
      held = '';
      mode = 'after';
      afterThink(head.slice(CLOSE_TAG.length), out);
    } else if (!OPEN_TAG.startsWith(head) && !CLOSE_TAG.startsWith(head)) {
      plain(out);
    }
  };

  // Gives up on a leading tag: what was held is content.
  const plain = (out: AssemblerDelta[]): void => {
    if (held !== '') out.push({ type: 'text', text: held });
    held = '';
    mode = 'text';
  };

  const contentPiece = (text: string, out: AssemblerDelta[]): void => {
    if (text === '') return;
    if (mode === 'text') out.push({ type: 'text', text });
    else if (mode === 'start') start(text, out);
    else if (mode === 'open') opened(text, out);
    else if (mode === 'think') think(held + text, out);
    else afterThink(text, out);
  };

  // What end() emits for the held characters: an unfinished start is content, an unclosed block reasoning.
  const heldDelta = (): AssemblerDelta | undefined =>
    held === '' ? undefined : mode === 'think' ? { type: 'reasoning', text: held } : { type: 'text', text: held };

  const record = (out: AssemblerDelta[]): void => {
    for (const d of out) (d.type === 'text' ? content : reasoning).push(d.text);
  };

  const contentText = (value: unknown, out: AssemblerDelta[]): void => {
    if (typeof value === 'string') {
      contentPiece(value, out);
      return;
    }
    if (!Array.isArray(value)) return;
    for (const part of value) {
      stats.work++;
      const text = typeof part === 'string' ? part : isObj(part) && (part['type'] === 'text' || part['type'] === undefined) ? part['text'] : undefined;
      if (typeof text === 'string') contentPiece(text, out);
    }
  };

  const takeUsage = (value: unknown): void => {
    stats.work++;
    if (isObj(value)) usage = value;
  };

  return {
    push(chunk: unknown): AssemblerDelta[] {
      stats.chunks++;
      const out: AssemblerDelta[] = [];
      if (!isObj(chunk)) return out;
      if (chunk['error'] !== undefined && chunk['error'] !== null) {
        throw new PagentError(`Provider error in the stream: ${providerErrorMessage(chunk['error'])}`, {
          code: 'provider',
          where: 'llm',
        });
      }
      cached = undefined;
      const choices = chunk['choices'];
      let choiceUsage: unknown;
      if (Array.isArray(choices)) {
        for (let i = 0; i < choices.length; i++) {
          stats.work++;
          const choice: unknown = choices[i];
          if (!isObj(choice)) continue;
          const index = typeof choice['index'] === 'number' ? choice['index'] : i;
          if (index !== 0) continue;
          const delta = isObj(choice['delta']) ? choice['delta'] : isObj(choice['message']) ? choice['message'] : undefined;
          if (delta) {
            const r = reasoningText(delta);
            if (r !== undefined) {
              // The provider separates reasoning itself: content held as a possible tag is plain content.
              if (mode === 'start') plain(out);
              out.push({ type: 'reasoning', text: r });
            }
            contentText(delta['content'], out);
            const calls = delta['tool_calls'];
            if (Array.isArray(calls)) for (const call of calls) applyToolCall(call);
          }
          const reason = nonEmpty(choice['finish_reason']);
          if (reason !== undefined) finishReason = reason;
          if (isObj(choice['usage'])) choiceUsage = choice['usage'];
        }
      }
      if (isObj(chunk['usage'])) takeUsage(chunk['usage']);
      else if (choiceUsage !== undefined) takeUsage(choiceUsage);
      else if (isObj(chunk['x_groq']) && isObj(chunk['x_groq']['usage'])) takeUsage(chunk['x_groq']['usage']);
      record(out);
      return out;
    },
    end(): AssemblerDelta[] {
      const last = heldDelta();
      held = '';
      if (mode === 'start') mode = 'text';
      if (!last) return [];
      cached = undefined;
      record([last]);
      return [last];
    },
    result(): AssembledStep {
      const last = heldDelta();
      cached ??= {
        content: content.join('') + (last?.type === 'text' ? last.text : ''),
        reasoning_content: reasoning.join('') + (last?.type === 'reasoning' ? last.text : ''),
        tool_calls: ordered(slots).map((s) => ({ id: s.id, type: 'function' as const, function: { name: s.name, arguments: s.args.join('') } })),
        finish_reason: finishReason,
        usage,
      };
      return cached;
    },
    get finished() {
      return finishReason !== null;
    },
    stats,
  };
}

/** A push decoder for a whole Chat Completions `text/event-stream` body: SSE framing plus the chunk assembler. */
export interface CompletionDecoder extends StreamDecoder {
  /** The underlying assembler (its `result()` is the step so far). */
  readonly assembler: ChunkAssembler;
}

/** Options of {@link createCompletionDecoder} (`reasoningTags` is passed to its assembler). */
export interface CompletionDecoderOptions extends ChunkAssemblerOptions, EventStreamDecoderOptions {}

/**
 * Creates a push decoder for one streamed chat completion body (see {@link createEventStreamDecoder} for
 * the framing). Messages whose `event:` is neither absent, `message` nor `error` are ignored; `"finished"`
 * (see {@link StreamDecoder.end}) means a `finish_reason` came: several servers omit `data: [DONE]`.
 */
export function createCompletionDecoder(options: CompletionDecoderOptions = {}): CompletionDecoder {
  // the assembler reads the messages as they are: a Chat Completions stream is what the decoder reads by default
  const assembler = createChunkAssembler({ reasoningTags: options.reasoningTags });
  return Object.assign(createEventStreamDecoder(assembler, options), { assembler });
}
