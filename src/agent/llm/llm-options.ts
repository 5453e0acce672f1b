/**
 * The public types of the `LLM` client: its options, one request, what its stream yields, and what a
 * retry reports.
 */
import type { PagentError } from '../../errors.js';
import type { ChatMessage, ToolSchema } from '../messages.js';
import type { AssembledStep, ChunkAssemblerOptions } from './chunk-assembler.js';
import type { LLM } from './llm.js';
import type { ModelApiName } from './model-api.js';

/** What {@link LLM.stream} yields: text and reasoning deltas as they arrive, then the assembled step once, last. */
export type LLMStreamEvent =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  | { type: 'step'; step: AssembledStep };

/** One model call. */
export interface LLMRequest {
  messages: ChatMessage[];
  /** Tool schemas; sent only when non-empty. */
  tools?: ToolSchema[];
  /** Extra body fields for this call (`temperature`, `reasoning_effort`…); they override `requestKwargs`. */
  kwargs?: Record<string, unknown>;
  /** Aborting stops the call at once (also during a retry backoff); `stream()` then throws `signal.reason`. */
  signal?: AbortSignal;
}

/** What {@link LLMOptions.onRetry} is told before each retry. */
export interface LLMRetryInfo {
  /** 1 for the first retry. */
  attempt: number;
  /** How long the client waits before the retry (from `Retry-After` when the server sent one). */
  delayMs: number;
  /** The failure being retried (`code` "http" with `status`, or "network"). */
  error: PagentError;
}

/** Options of {@link LLM}. */
export interface LLMOptions {
  /**
   * The API root, e.g. `https://api.openai.com/v1`; the client posts to `{baseURL}/chat/completions`
   * (`/responses` for the Responses API, `/messages` for Anthropic's Messages API).
   */
  baseURL: string;
  /**
   * Sent as `Authorization: Bearer <apiKey>` (`x-api-key: <apiKey>` for Anthropic's Messages API), only to
   * `baseURL`; never put in an error message.
   */
  apiKey?: string | undefined;
  /**
   * The model API the server speaks: OpenAI's Chat Completions (every OpenAI-compatible server), OpenAI's
   * Responses API (also "Open Responses" servers) or Anthropic's Messages API. Whichever it is, `stream()`
   * yields the same deltas and step, and an `Agent` the same events. The reader of the Responses and
   * Messages APIs is a chunk loaded on the first call. @defaultValue `"chat-completions"`
   */
  api?: ModelApiName | undefined;
  /** Extra request headers (they override the defaults). Each non-safelisted header needs CORS consent. */
  headers?: Record<string, string> | undefined;
  /** The `fetch` to use. @defaultValue `globalThis.fetch` */
  fetch?: typeof fetch | undefined;
  /**
   * Body fields sent with every call (`temperature`, `max_tokens`…), in the API's own words (`reasoning:
   * {effort}` for the Responses API, `thinking: {type: "enabled", budget_tokens}` for Anthropic's).
   */
  requestKwargs?: Record<string, unknown> | undefined;
  /**
   * Ask for a usage chunk with `stream_options: {include_usage: true}` (Chat Completions only: the other
   * APIs always send usage). @defaultValue true
   */
  includeUsage?: boolean | undefined;
  /** Retries of a 429, a 5xx or a network failure that happened before the first response byte. @defaultValue 2 */
  retries?: number | undefined;
  /** Backoff before retry n (from 0) is `retryBaseMs * 2^n`, unless the server sent `Retry-After`. @defaultValue 500 */
  retryBaseMs?: number | undefined;
  /** A `Retry-After` longer than this is not waited for: the call fails with the 429/5xx at once. @defaultValue 60000 */
  maxRetryDelayMs?: number | undefined;
  /**
   * How long to wait for the response headers, and then for each next piece of the body, before failing
   * with code `"timeout"` (time the consumer spends between reads does not count). Timeouts are not
   * retried; 0 or `Infinity` turns the limit off. @defaultValue 600000 (10 minutes, as openai-node)
   */
  timeoutMs?: number | undefined;
  /**
   * The largest piece of a response the client holds in memory: one SSE message of the stream, a JSON
   * response body (a server that ignores `stream: true`). A stream message over it fails the call with code
   * `"provider"` and the request is aborted at once, so a server that streams one endless line or message
   * cannot grow memory without bound. A non-2xx body is read only up to 64 KiB (or this limit, if smaller).
   * @defaultValue 16777216 (16 MiB)
   */
  maxEventBytes?: number | undefined;
  /**
   * Split `<think>…</think>` reasoning out of the content when a step's content starts with it, as models
   * served without a reasoning parser (vLLM, SGLang, llama.cpp, Ollama, LM Studio) send it: the reasoning
   * comes as `reasoning` deltas and in `reasoning_content`. See {@link ChunkAssemblerOptions.reasoningTags}
   * for exactly what is split; `false` keeps the content verbatim. @defaultValue true
   */
  reasoningTags?: boolean | undefined;
  /** Called before each retry (e.g. to show "retrying in 2 s"). */
  onRetry?: ((info: LLMRetryInfo) => void) | undefined;
}
