/**
 * Up-front checks of an `LLM`'s options: a configuration that no request can succeed with fails in the
 * constructor, with a message that names the field, instead of as a network error after every retry.
 */
import { PagentError } from '../../errors.js';
import { MODEL_API_PATHS } from './model-api.js';

const invalid = (message: string): PagentError => new PagentError(`LLM: ${message}`, { code: 'config', where: 'llm' });

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** RFC 9110 token characters: what a header name may contain. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~\w-]+$/;
/** What `fetch` accepts in a header value: Latin-1 without NUL, CR or LF. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;
const UNSENDABLE = 'has characters no HTTP header can carry (a line break, or one outside Latin-1)';

/** What a bad value was, for the message; a string is quoted (callers never pass a secret here). */
const got = (value: unknown): string =>
  `(got ${typeof value === 'string' ? JSON.stringify(value.slice(0, 80)) : value === null ? 'null' : typeof value})`;

/** Options that must be of a type, or a number ≥ 0 (`integer`: a whole one; `positive`: a whole one > 0). */
const TYPED: Array<[key: string, type: 'boolean' | 'function' | 'object' | 'number' | 'integer' | 'positive']> = [
  ['fetch', 'function'],
  ['onRetry', 'function'],
  ['requestKwargs', 'object'],
  ['includeUsage', 'boolean'],
  ['reasoningTags', 'boolean'],
  ['retries', 'integer'],
  ['retryBaseMs', 'number'],
  ['maxRetryDelayMs', 'number'],
  ['timeoutMs', 'number'],
  ['maxEventBytes', 'positive'],
];

function checkTyped(options: Record<string, unknown>): void {
  for (const [key, type] of TYPED) {
    const v = options[key];
    if (v === undefined) continue;
    const numeric = type === 'number' || type === 'integer' || type === 'positive';
    const ok = numeric
      ? typeof v === 'number' && v >= 0 && (type === 'number' || (Number.isInteger(v) && (type === 'integer' || v > 0)))
      : type === 'object'
        ? isObject(v)
        : typeof v === type;
    if (!ok) {
      const want = numeric ? (type === 'number' ? 'a number ≥ 0' : type === 'integer' ? 'a whole number ≥ 0' : 'a whole number > 0') : type === 'object' ? 'an object' : `a ${type}`;
      throw invalid(`"${key}" must be ${want} ${typeof v === 'number' ? `(got ${v})` : got(v)}`);
    }
  }
}

/**
 * Checks a model name and `LLM` options before any request, and returns the absolute endpoint root (a
 * path such as `/v1` resolves against the page, as `fetch` would resolve it). Every failure is a
 * `PagentError{code: "config", where: "llm"}` whose message names the field; the key and header values
 * are never quoted.
 *
 * @throws {PagentError}
 */
export function checkLLMOptions(model: unknown, options: unknown): URL {
  if (typeof model !== 'string' || model.trim() === '') throw invalid(`"model" must be a non-empty string ${got(model)}`);
  if (!isObject(options)) throw invalid(`options with a "baseURL" are required, e.g. new LLM('${model}', { baseURL: 'https://api.openai.com/v1' })`);
  const { baseURL, apiKey, headers } = options;
  if (typeof baseURL !== 'string' || baseURL.trim() === '') {
    throw invalid(`"baseURL" is required: the API root, e.g. "https://api.openai.com/v1" ${got(baseURL)}`);
  }
  const text = baseURL.trim();
  const href = (globalThis as { location?: { href?: unknown } }).location?.href;
  let url: URL;
  try {
    url = typeof href === 'string' && /^[./]/.test(text) ? new URL(text, href) : new URL(text);
  } catch {
    throw invalid(`"baseURL" is not a URL ${got(text)}; write it in full, e.g. "https://api.openai.com/v1"`);
  }
  if (url.username || url.password) throw invalid('"baseURL" must not contain a user name or password; pass the key as "apiKey"');
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    // "localhost:8787/v1" parses as a URL whose scheme is "localhost:"
    const hint = /^[\w.-]+:\d+(\/|$)/.test(text) ? `; did you mean "http://${text}"?` : '';
    throw invalid(`"baseURL" must start with http:// or https:// ${got(text)}${hint}`);
  }
  if (typeof href === 'string' && href.startsWith('https:') && url.protocol === 'http:' && !LOOPBACK.test(url.hostname)) {
    throw invalid(`"baseURL" ${got(text)} is http:// on an https:// page: the browser blocks it (mixed content). Use the server's https:// address, or one on localhost`);
  }
  if (apiKey !== undefined) {
    if (typeof apiKey !== 'string') throw invalid(`"apiKey" must be a string ${got(typeof apiKey)}`);
    if (!HEADER_VALUE.test(apiKey.trim())) throw invalid(`"apiKey" ${UNSENDABLE}: check that only the key was pasted`);
  }
  if (headers !== undefined) {
    if (!isObject(headers)) throw invalid(`"headers" must be an object of header names to strings ${got(headers)}`);
    for (const [name, value] of Object.entries(headers)) {
      if (!HEADER_NAME.test(name)) throw invalid(`"headers" has an invalid header name ${got(name)}`);
      if (typeof value !== 'string') throw invalid(`"headers.${name}" must be a string ${got(typeof value)}`);
      if (!HEADER_VALUE.test(value)) throw invalid(`"headers.${name}" ${UNSENDABLE}`);
    }
  }
  const { api } = options;
  if (api !== undefined && !Object.hasOwn(MODEL_API_PATHS, String(api))) {
    throw invalid(`"api" must be "chat-completions", "responses" or "anthropic-messages" ${got(api)}`);
  }
  checkTyped(options);
  return url;
}
