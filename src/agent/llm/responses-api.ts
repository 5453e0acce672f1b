/**
 * OpenAI's Responses API for the `LLM` (`api: "responses"`): loaded by `import()` when an `LLM` with that
 * API makes its first call, so pages that use another API never download it.
 */
import type { AssemblerDelta } from './chunk-assembler.js';
import type { ModelApi, ModelApiContext } from './model-api.js';
import { createResponsesReader } from './responses-reader.js';
import { responsesRequest } from './responses-request.js';

/** What a JSON body means: a response object, or an error object. */
const parseJson = (text: string, url: string, context: ModelApiContext): Record<string, unknown> => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    throw new context.PagentError(`The response of POST ${url} is neither an event stream nor valid JSON: ${text.slice(0, 200)}`, { code: 'provider', where: 'llm', cause });
  }
  const body = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  if (body['error'] !== undefined && body['error'] !== null) {
    throw new context.PagentError(`Provider error: ${context.providerErrorMessage(body['error'])}`, { code: 'provider', where: 'llm' });
  }
  return body;
};

/** The Responses API: the headers of Chat Completions, the body of `responsesRequest`, the reader of `createResponsesReader`. */
export function createApi(context: ModelApiContext): ModelApi {
  return {
    body: (model, request) => ({ ...responsesRequest(model, request.messages, request.tools, request.kwargs), ...request.kwargs }),
    decoder: ({ maxEventBytes, redact }) => context.createEventStreamDecoder(createResponsesReader(context, redact), { maxEventBytes }),
    fromJson(text, { url, redact }) {
      const response = parseJson(text, url, context);
      const reader = createResponsesReader(context, redact);
      const deltas: AssemblerDelta[] = reader.push({ type: 'response.completed', response }, undefined);
      return { deltas, step: reader.result() };
    },
    streamEnd: 'a response.completed event',
  };
}
