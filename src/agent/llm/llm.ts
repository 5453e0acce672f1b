/**
 * The LLM client: streams `POST {baseURL}/chat/completions` from any OpenAI-compatible server with plain
 * `fetch`, assembles the chunks (src/agent/llm/chunk-assembler.ts) and reports failures as `PagentError`s. The
 * Responses and Anthropic Messages APIs are modules of their own (src/agent/llm/model-api.ts), loaded on first use.
 */
import { HttpError, PagentError } from '../../errors.js';
import { networkFailureMessage, probeVerdict } from '../../wire/request-failure.js';
import { checkLLMOptions } from './llm-option-checks.js';
import { redactedStream, redactError } from './llm-redaction.js';
import type { LLMOptions, LLMRequest, LLMRetryInfo, LLMStreamEvent } from './llm-options.js';
import { createRedactor, secretHeaderValues, type Redactor } from '../redact.js';
import type { HttpFailure } from './llm-http-failure.js';
import {
  createChunkAssembler,
  createCompletionDecoder,
  DEFAULT_MAX_EVENT_BYTES,
  providerErrorMessage,
  type AssembledStep,
  type AssemblerDelta,
} from './chunk-assembler.js';
import { createEventStreamDecoder } from './event-stream-decoder.js';
import { MODEL_API_PATHS, type ModelApi, type ModelApiContext, type ModelApiName } from './model-api.js';

export type { AssembledStep } from './chunk-assembler.js';

export type { LLMOptions, LLMRequest, LLMRetryInfo, LLMStreamEvent } from './llm-options.js';
const BEFORE_RESPONSE = 'before any response';
const MAX_SNIFF_BYTES = 1_048_576; // 1 MiB, a literal so that bundlers drop it where unused

/** Reading a body that is not an event stream (./llm-json-body.ts), loaded on the first such response. */
const loadJsonBody = (): Promise<typeof import('./llm-json-body.js')> => import('./llm-json-body.js');

/** The module of each API beyond Chat Completions, loaded by its first call. */
const API_MODULES: Record<Exclude<ModelApiName, 'chat-completions'>, () => Promise<{ createApi(context: ModelApiContext): ModelApi }>> = {
  responses: () => import('./responses-api.js'),
  'anthropic-messages': () => import('./anthropic-api.js'),
};

const sleep = (ms: number, signal: AbortSignal | undefined): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/**
 * A model client with streaming, retries and typed failures, for OpenAI-compatible Chat Completions (the
 * default), OpenAI's Responses API and Anthropic's Messages API (`api` option).
 *
 * Requests carry only `Content-Type: application/json`, `Authorization: Bearer <apiKey>` (when a key is set)
 * and the user's `headers`, so a self-hosted server needs nothing beyond ordinary CORS. The body is
 * `{model, messages, stream: true, stream_options: {include_usage: true}, tools, ...requestKwargs, ...kwargs}`
 * (`stream_options` left out with `includeUsage: false`, `tools` only when non-empty). The Responses and
 * Messages APIs get their own body (Anthropic's its own headers too: `x-api-key`, `anthropic-version`,
 * `anthropic-dangerous-direct-browser-access`), and their streams are read into the same deltas and step;
 * docs/guides/agent.md, "Model APIs", says what each carries.
 *
 * Failures are `PagentError`s with `where: "llm"` and a code: `"http"` (an `HttpError` with the status and the
 * provider's own message), `"network"` (server unreachable or CORS refused: the message says what to check),
 * `"provider"` (an error object or `event: error` in the stream, a non-JSON message, or a message or
 * JSON body over `maxEventBytes`), `"redirect"` (the server redirected the request: refused when it leaves
 * `baseURL`'s origin, and always in a browser, which hides the target), `"timeout"` (no
 * response or a stalled body for `timeoutMs`) or `"truncated"` (the body ended with neither a
 * `finish_reason` nor `data: [DONE]`; a stream with a `finish_reason` but without `[DONE]` is accepted).
 * 429, 5xx and network failures before the first body byte are retried; nothing is retried after it.
 * The API key and the values of the `headers` (but those that describe the request, such as `Accept`) are
 * removed from every message and from the model's own output (deltas, content, reasoning, tool call
 * arguments), with their URL-encoded and base64 copies, when they look like real secrets (see `redact`).
 *
 * @example
 * ```ts
 * const llm = new LLM('gpt-4o-mini', { baseURL: 'https://api.openai.com/v1', apiKey });
 * for await (const e of llm.stream({ messages: [{ role: 'user', content: 'Hi' }] })) {
 *   if (e.type === 'text') out.append(e.text);
 * }
 * ```
 */
export class LLM {
  /** The model name sent in every request. */
  readonly model: string;
  /** The API root the requests go to, without a trailing slash. */
  readonly baseURL: string;
  /** The model API the requests speak. */
  readonly api: ModelApiName;
  // A private field: the key stays out of JSON.stringify(llm), structured clones and enumerations.
  readonly #options: LLMOptions;
  readonly #redactor: Redactor;
  /** Network failures before any response, with what failed: a browser probe then says why (CORS or unreachable). */
  readonly #unanswered = new WeakMap<PagentError, { err: unknown; when: string }>();
  /** The absolute API root (a relative `baseURL` resolved against the page): redirects may not leave its origin. */
  readonly #root: URL;
  #api: Promise<ModelApi> | undefined;

  /**
   * @throws {PagentError} `code: "config"` when an option can never work (no or a scheme-less `baseURL`, a
   * key or header no HTTP request can carry, a negative retry count …): the message names the field.
   */
  constructor(model: string, options: LLMOptions) {
    this.#root = checkLLMOptions(model, options);
    this.model = model;
    this.baseURL = options.baseURL.trim().replace(/\/+$/, '');
    this.api = options.api ?? 'chat-completions';
    const apiKey = options.apiKey?.trim() || undefined;
    this.#options = { ...options, apiKey };
    this.#redactor = createRedactor([apiKey ?? '', ...secretHeaderValues(options.headers)]);
  }

  /**
   * `text` with this client's API key and secret header values replaced by `[redacted]`. Only values that
   * look like real secrets count (see `isSecretLike`: a placeholder key such as `ollama` redacts nothing).
   * The `Agent` passes tool results, errors and the user's input through it before it emits or stores them.
   */
  redact(text: string): string {
    return this.#redactor.redact(text);
  }

  /** The endpoint every call posts to: `{baseURL}/chat/completions`, `/responses` or `/messages` (by `api`). */
  get url(): string {
    return this.baseURL + MODEL_API_PATHS[this.api];
  }

  /**
   * The JSON body {@link stream} sends for a request (no secrets in it). Asynchronous because the module
   * of the Responses or Messages API is loaded on first use.
   */
  async requestBody(request: Omit<LLMRequest, 'signal'>): Promise<Record<string, unknown>> {
    return this.#body(request, await this.#module());
  }

  #body(request: Omit<LLMRequest, 'signal'>, api: ModelApi | undefined): Record<string, unknown> {
    const kwargs = { ...this.#options.requestKwargs, ...request.kwargs };
    if (api) return api.body(this.model, { messages: request.messages, tools: request.tools, kwargs });
    // the reasoning kept for another API is not for this one
    const messages = request.messages.map((m) => (m.role === 'assistant' && m.reasoning_blocks ? { ...m, reasoning_blocks: undefined } : m));
    const body: Record<string, unknown> = { model: this.model, messages, stream: true };
    if (this.#options.includeUsage !== false) body['stream_options'] = { include_usage: true };
    if (request.tools && request.tools.length > 0) body['tools'] = request.tools;
    return { ...body, ...kwargs };
  }

  /** The module of this LLM's API (none for Chat Completions), loaded once. */
  async #module(): Promise<ModelApi | undefined> {
    if (this.api === 'chat-completions') return undefined;
    return (this.#api ??= API_MODULES[this.api]().then(
      (m) => m.createApi({ PagentError, createEventStreamDecoder, providerErrorMessage }),
      (cause: unknown) => {
        this.#api = undefined;
        throw new PagentError(`Could not load the reader of the ${this.api} API (${String(cause)})`, { code: 'network', where: 'llm', cause });
      },
    ));
  }

  /**
   * Streams one model call: `text` and `reasoning` deltas (never empty) as they arrive, then exactly one
   * `step` event, last. Breaking out of the loop cancels the request. Throws a `PagentError` on failure
   * (see the class), or `request.signal.reason` when the signal aborts.
   */
  async *stream(request: LLMRequest): AsyncGenerator<LLMStreamEvent, void, undefined> {
    const { signal } = request;
    signal?.throwIfAborted();
    const api = await this.#module();
    signal?.throwIfAborted();
    const body = JSON.stringify(this.#body(request, api));
    const retries = Math.max(0, this.#options.retries ?? 2);
    const text = this.#redactor.stream();
    const reasoning = this.#redactor.stream();
    try {
      for (let attempt = 0; ; attempt++) {
        const outcome = yield* redactedStream(this.#redactor, this.#attempt(body, signal, api), text, reasoning);
        if (outcome.kind === 'done') return;
        if (attempt >= retries) throw outcome.error;
        const delayMs = outcome.delayMs ?? (this.#options.retryBaseMs ?? 500) * 2 ** attempt;
        if (delayMs > (this.#options.maxRetryDelayMs ?? 60_000)) throw outcome.error;
        this.#options.onRetry?.({ attempt: attempt + 1, delayMs, error: outcome.error });
        await sleep(delayMs, signal);
      }
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      const unanswered = err instanceof PagentError ? this.#unanswered.get(err) : undefined;
      if (unanswered?.when === BEFORE_RESPONSE) {
        // A browser says "Failed to fetch" for both: ask once whether anything answers there at all.
        // (only with the page's own fetch: an injected one may route requests elsewhere)
        const verdict = this.#options.fetch ? undefined : await probeVerdict(this.url, signal);
        if (signal?.aborted) throw signal.reason;
        throw this.#networkError(unanswered.err, unanswered.when, verdict);
      }
      throw redactError(this.#redactor, err);
    }
  }

  /** Drains {@link stream} and resolves with the assembled step. */
  async complete(request: LLMRequest): Promise<AssembledStep> {
    for await (const event of this.stream(request)) if (event.type === 'step') return event.step;
    throw new PagentError(`The model stream from POST ${this.url} ended without a step`, { code: 'truncated', where: 'llm' });
  }

  async *#attempt(
    body: string,
    signal: AbortSignal | undefined,
    api: ModelApi | undefined,
  ): AsyncGenerator<LLMStreamEvent, { kind: 'done' } | { kind: 'retry'; error: PagentError; delayMs: number | undefined }, undefined> {
    const controller = new AbortController();
    const onAbort = (): void => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    const timeoutMs = this.#options.timeoutMs ?? 600_000;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let timedOut = false;
    const arm = (): void => {
      clearTimeout(timer);
      if (!(timeoutMs > 0 && timeoutMs < 2 ** 31)) return;
      timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, timeoutMs);
    };
    const maxEventBytes = this.#options.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES;
    let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
    let bytes = 0;
    try {
      arm();
      let response: Response;
      try {
        response = await this.#post(body, controller.signal, api);
      } catch (err) {
        if (signal?.aborted) throw signal.reason;
        if (timedOut) throw this.#timeout(`no response within ${timeoutMs} ms`);
        if (err instanceof PagentError) throw err;
        return { kind: 'retry', error: this.#networkError(err, BEFORE_RESPONSE), delayMs: undefined };
      }

      if (!response.ok) {
        // A failed read gives what arrived before it; the status alone still says what happened.
        const { error, retryable, delayMs } = await this.#httpFailure(response, maxEventBytes);
        if (signal?.aborted) throw signal.reason;
        if (!retryable) throw error;
        return { kind: 'retry', error, delayMs };
      }

      const type = response.headers.get('content-type') ?? '';
      if (!response.body) throw this.#truncated(0, '', api);
      reader = response.body.getReader();
      const json = /application\/json/i.test(type) && !/event-stream/i.test(type);
      const decoder = api
        ? api.decoder({ maxEventBytes, redact: this.#redactor.redact })
        : createCompletionDecoder({ maxEventBytes, reasoningTags: this.#options.reasoningTags });
      const jsonParts: Uint8Array[] = [];
      for (;;) {
        arm();
        let read: ReadableStreamReadResult<Uint8Array>;
        try {
          read = await reader.read();
        } catch (err) {
          if (signal?.aborted) throw signal.reason;
          if (timedOut) throw this.#timeout(`the stream stalled: no data for ${timeoutMs} ms after ${bytes} bytes`);
          const error = this.#networkError(err, bytes === 0 ? 'before the first byte of the body' : `after ${bytes} bytes of the stream`);
          if (bytes === 0) return { kind: 'retry', error, delayMs: undefined };
          throw error;
        }
        // The consumer's time between reads is not a stall.
        clearTimeout(timer);
        if (read.done) break;
        bytes += read.value.byteLength;
        if (json) {
          if (bytes > maxEventBytes) {
            throw new PagentError(`The JSON response of POST ${this.url} is over ${maxEventBytes} bytes (maxEventBytes); it was abandoned`, {
              code: 'provider',
              where: 'llm',
            });
          }
          jsonParts.push(read.value);
        } else {
          // Until the first SSE message, keep the bytes: a body that never becomes an event stream may
          // be one JSON object sent with the wrong Content-Type.
          if (decoder.messages === 0 && bytes <= MAX_SNIFF_BYTES) jsonParts.push(read.value);
          yield* this.#deltas(decoder.feed(read.value), signal);
        }
      }
      clearTimeout(timer);
      if (json) return yield* this.#fromJson((await loadJsonBody()).bodyText(jsonParts), api);
      const end = decoder.end();
      yield* this.#deltas(end.deltas, signal);
      let sniffed = '';
      if (decoder.messages === 0 && bytes > 0 && bytes <= MAX_SNIFF_BYTES) {
        const text = (await loadJsonBody()).bodyText(jsonParts);
        sniffed = text.trim();
        if (sniffed.startsWith('{')) return yield* this.#fromJson(text, api);
      }
      if (end.how === 'truncated') throw this.#truncated(bytes, sniffed, api);
      yield { type: 'step', step: decoder.result() };
      return { kind: 'done' };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (reader) reader.cancel().catch(() => undefined);
      controller.abort();
    }
  }

  /**
   * POSTs the request without letting `fetch` follow redirects: a redirect to another origin would re-send
   * the whole conversation there. What to do with a redirect (./llm-redirect.ts, loaded on the first one):
   * follow a 307/308 on the same origin where the target is visible, else refuse it with
   * `PagentError{code: "redirect"}`, never retried.
   */
  async #post(body: string, signal: AbortSignal, api: ModelApi | undefined): Promise<Response> {
    const fetchImpl = this.#options.fetch ?? globalThis.fetch.bind(globalThis);
    let url = this.url;
    for (let hop = 0; ; hop++) {
      const response = await fetchImpl(url, { method: 'POST', headers: this.#headers(api), body, signal, redirect: 'manual' });
      const status = response.status;
      if (response.type !== 'opaqueredirect' && (status < 300 || status > 399 || status === 304)) return response;
      const { redirectTarget } = await import('./llm-redirect.js');
      url = redirectTarget(response, url, hop, { url: this.url, root: this.#root, redact: (text) => this.#redact(text), PagentError });
    }
  }

  // A server that ignores `stream: true` answers with one chat.completion object (or an error object).
  async *#fromJson(text: string, api: ModelApi | undefined): AsyncGenerator<LLMStreamEvent, { kind: 'done' }, undefined> {
    const { deltas, step } = api
      ? api.fromJson(text, { url: this.url, redact: this.#redactor.redact })
      : (await loadJsonBody()).fromJsonBody(text, { url: this.url, reasoningTags: this.#options.reasoningTags, createChunkAssembler, PagentError });
    yield* this.#deltas(deltas);
    yield { type: 'step', step };
    return { kind: 'done' };
  }

  /** Yields `deltas`; once `signal` aborts (the consumer stopped after an earlier one), throws its reason instead. */
  *#deltas(deltas: AssemblerDelta[], signal?: AbortSignal): Generator<LLMStreamEvent, void, undefined> {
    for (const d of deltas) {
      signal?.throwIfAborted();
      yield d;
    }
  }

  #headers(api: ModelApi | undefined): Record<string, string> {
    const { apiKey } = this.#options;
    if (api?.headers) return { ...api.headers(apiKey), ...this.#options.headers };
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (apiKey) headers['Authorization'] = `Bearer ${apiKey}`;
    return { ...headers, ...this.#options.headers };
  }

  #redact(text: string): string {
    return this.#redactor.redact(text);
  }

  /** The error of a non-2xx response and whether to retry it (./llm-http-failure.ts, loaded on the first one). */
  async #httpFailure(response: Response, maxBytes: number): Promise<HttpFailure> {
    const { status } = response;
    let m: typeof import('./llm-http-failure.js');
    try {
      m = await import('./llm-http-failure.js');
    } catch {
      // not loaded (the page's own network may be what failed): the status still says what happened
      response.body?.cancel().catch(() => undefined);
      return { error: new HttpError(this.#redact(`HTTP ${status} from POST ${this.url}.`), status, 'llm'), retryable: false, delayMs: undefined };
    }
    return m.httpFailure(response, maxBytes, { url: this.url, redact: (text) => this.#redact(text), HttpError });
  }

  #networkError(err: unknown, when: string, verdict?: string): PagentError {
    const reason = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    const error = new PagentError(this.#redact(networkFailureMessage(`POST ${this.url}`, reason, verdict, when)), {
      code: 'network',
      where: 'llm',
    });
    this.#unanswered.set(error, { err, when });
    return error;
  }

  #timeout(what: string): PagentError {
    return new PagentError(`Timed out calling POST ${this.url}: ${what}`, { code: 'timeout', where: 'llm' });
  }

  #truncated(bytes: number, nonStream = '', api?: ModelApi): PagentError {
    const what = nonStream === '' ? '' : ` (the body is not an event stream: ${this.#redact(nonStream.slice(0, 200))})`;
    return new PagentError(
      `The model stream from POST ${this.url} ended after ${bytes} bytes without ${api ? api.streamEnd : 'a finish_reason or data: [DONE]'}${what}`,
      { code: 'truncated', where: 'llm' },
    );
  }
}
