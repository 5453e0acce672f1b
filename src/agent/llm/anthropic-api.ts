/**
 * Anthropic's Messages API for the `LLM` (`api: "anthropic-messages"`): loaded by `import()` when an `LLM`
 * with that API makes its first call, so pages that use another API never download it.
 */
import type { AssemblerDelta } from './chunk-assembler.js';
import type { ModelApi, ModelApiContext } from './model-api.js';
import { anthropicErrorMessage, createAnthropicReader } from './anthropic-reader.js';
import { ANTHROPIC_VERSION, anthropicRequest } from './anthropic-request.js';

/**
 * The Messages API: the key as `x-api-key`, `anthropic-version`, and
 * `anthropic-dangerous-direct-browser-access: true` (without it the API refuses a request from a page's
 * origin); the body of `anthropicRequest`; the reader of `createAnthropicReader`.
 */
export function createApi(context: ModelApiContext): ModelApi {
  return {
    headers(apiKey) {
      const headers: Record<string, string> = {
        'Content-Type': 'application/json',
        'anthropic-version': ANTHROPIC_VERSION,
        'anthropic-dangerous-direct-browser-access': 'true',
      };
      if (apiKey) headers['x-api-key'] = apiKey;
      return headers;
    },
    body: (model, request) => ({ ...anthropicRequest(model, request.messages, request.tools, request.kwargs), ...request.kwargs }),
    decoder: ({ maxEventBytes, redact }) => context.createEventStreamDecoder(createAnthropicReader(context, redact), { maxEventBytes }),
    fromJson(text, { url, redact }) {
      let message: unknown;
      try {
        message = JSON.parse(text);
      } catch (cause) {
        throw new context.PagentError(`The response of POST ${url} is neither an event stream nor valid JSON: ${text.slice(0, 200)}`, { code: 'provider', where: 'llm', cause });
      }
      const m = typeof message === 'object' && message !== null ? (message as Record<string, unknown>) : {};
      if (m['type'] === 'error' || m['error'] !== undefined) {
        throw new context.PagentError(`Provider error: ${anthropicErrorMessage(m, context.providerErrorMessage)}`, { code: 'provider', where: 'llm' });
      }
      // A whole message read as the events that would have streamed it.
      const reader = createAnthropicReader(context, redact);
      const deltas: AssemblerDelta[] = reader.push({ type: 'message_start', message: { ...m, content: [] } }, undefined);
      const content = Array.isArray(m['content']) ? m['content'] : [];
      content.forEach((block: unknown, index) => deltas.push(...reader.push({ type: 'content_block_start', index, content_block: block }, undefined)));
      reader.push({ type: 'message_delta', delta: { stop_reason: m['stop_reason'] ?? null }, usage: {} }, undefined);
      reader.push({ type: 'message_stop' }, undefined);
      return { deltas, step: reader.result() };
    },
    streamEnd: 'a message_stop event',
  };
}
