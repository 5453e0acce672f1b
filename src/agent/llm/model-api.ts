/**
 * The model APIs an `LLM` speaks and what it needs from the module of each API beyond Chat Completions,
 * which the `LLM` loads by `import()` when that API is first used (docs/architecture.md#model-apis).
 */
import type { PagentError } from '../../errors.js';
import type { AssembledStep, AssemblerDelta, providerErrorMessage } from './chunk-assembler.js';
import type { createEventStreamDecoder, StreamDecoder } from './event-stream-decoder.js';
import type { ChatMessage, ToolSchema } from '../messages.js';

/** The endpoint of each model API under the `LLM`'s `baseURL`. */
export const MODEL_API_PATHS = {
  /** OpenAI's Chat Completions, which every OpenAI-compatible server speaks. */
  'chat-completions': '/chat/completions',
  /** OpenAI's Responses API (also served as "Open Responses" by OpenRouter, Ollama, vLLM, LM Studio …). */
  responses: '/responses',
  /** Anthropic's Messages API. */
  'anthropic-messages': '/messages',
} as const;

/** The name of a model API (the `api` option of `LLM`). */
export type ModelApiName = keyof typeof MODEL_API_PATHS;

/** What the `LLM` hands to an API module: its own classes and functions (value imports would split its chunk). */
export interface ModelApiContext {
  PagentError: typeof PagentError;
  createEventStreamDecoder: typeof createEventStreamDecoder;
  providerErrorMessage: typeof providerErrorMessage;
}

/** One model call as the API module builds its body from. */
export interface ModelApiRequest {
  messages: ChatMessage[];
  tools?: ToolSchema[] | undefined;
  /** `requestKwargs` then the call's `kwargs`, merged: the body's last word. */
  kwargs: Record<string, unknown>;
}

/** What an API module does for the `LLM`: the API's headers, body and stream reader. */
export interface ModelApi {
  /**
   * The headers that carry the key and the API's own required headers (`Content-Type` included); without
   * it, those of Chat Completions (`Authorization: Bearer <key>`).
   */
  headers?(apiKey: string | undefined): Record<string, string>;
  /** The JSON body of a streamed call. */
  body(model: string, request: ModelApiRequest): Record<string, unknown>;
  /** A decoder for one streamed answer; `redact` is applied to the reasoning kept for the next request. */
  decoder(options: { maxEventBytes: number; redact: (text: string) => string }): StreamDecoder;
  /**
   * The deltas and step of a JSON body (a server that ignored `stream: true`).
   * @throws {PagentError} `code: "provider"` when it is not JSON or is an error object.
   */
  fromJson(text: string, options: { url: string; redact: (text: string) => string }): { deltas: AssemblerDelta[]; step: AssembledStep };
  /** What a complete stream of this API ends with, for the message of a truncated one. */
  readonly streamEnd: string;
}
