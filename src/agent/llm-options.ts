/**
 * Up-front checks of an `LLM`'s options: a configuration that no request can succeed with fails in the
 * constructor, with a message that names the field, instead of as a network error after every retry.
 */
import { PagentError } from '../errors.js';

/** The parts of the options the checks read (the full type lives in llm.ts). */
interface CheckedOptions {
  baseURL?: unknown;
  apiKey?: unknown;
  headers?: unknown;
  fetch?: unknown;
  requestKwargs?: unknown;
  includeUsage?: unknown;
  reasoningTags?: unknown;
  retries?: unknown;
  retryBaseMs?: unknown;
  maxRetryDelayMs?: unknown;
  timeoutMs?: unknown;
  maxEventBytes?: unknown;
  onRetry?: unknown;
}

const invalid = (message: string): PagentError => new PagentError(`LLM: ${message}`, { code: 'config', where: 'llm' });

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** RFC 9110 token characters: what a header name may contain. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** What `fetch` accepts in a header value: Latin-1 without NUL, CR or LF. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
  if (value === null) return 'null';
  return typeof value;
}

/** Where relative URLs resolve from (the page), or undefined outside a page. */
function pageURL(): URL | undefined {
  const location = (globalThis as { location?: { href?: unknown } }).location;
  if (!location || typeof location.href !== 'string') return undefined;
  try {
    return new URL(location.href);
  } catch {
    return undefined;
  }
}

/**
 * The endpoint root `baseURL` names, as an absolute URL. A path (`/v1`) resolves against the page, as
 * `fetch` would resolve it. The URL's user name and password are never echoed.
 *
 * @throws {PagentError} `code: "config"` naming `baseURL`.
 */
export function checkBaseURL(baseURL: unknown): URL {
  if (typeof baseURL !== 'string' || baseURL.trim() === '') {
    throw invalid(`"baseURL" is required: the API root such as "https://api.openai.com/v1" (got ${describe(baseURL)})`);
  }
  const text = baseURL.trim();
  const page = pageURL();
  let url: URL;
  try {
    url = page && /^[./]/.test(text) ? new URL(text, page) : new URL(text);
  } catch {
    throw invalid(`"baseURL" is not a URL: ${describe(text)}; write it in full, e.g. "https://api.openai.com/v1"`);
  }
  if (url.username !== '' || url.password !== '') {
    throw invalid('"baseURL" must not contain a user name or password; pass the key as "apiKey"');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    // "localhost:8787/v1" parses as a URL whose scheme is "localhost:"
    const hint = /^[\w.-]+:\d+(\/|$)/.test(text) ? `; did you mean "http://${text}"?` : '';
    throw invalid(`"baseURL" must start with http:// or https:// (got ${describe(text)})${hint}`);
  }
  if (page?.protocol === 'https:' && url.protocol === 'http:' && !LOOPBACK.test(url.hostname)) {
    throw invalid(
      `"baseURL" ${describe(text)} is http:// but this page is https://: the browser blocks such requests (mixed content). ` +
        'Use the https:// address of the server, or a server on localhost',
    );
  }
  return url;
}

function checkNumber(options: CheckedOptions, key: keyof CheckedOptions, rule: 'integer' | 'non-negative' | 'positive-integer'): void {
  const value = options[key];
  if (value === undefined) return;
  const ok =
    typeof value === 'number' &&
    !Number.isNaN(value) &&
    value >= 0 &&
    (rule === 'non-negative' || Number.isInteger(value)) &&
    (rule !== 'positive-integer' || value > 0);
  if (!ok) {
    const what = rule === 'non-negative' ? 'a number ≥ 0' : rule === 'integer' ? 'a whole number ≥ 0' : 'a whole number > 0';
    throw invalid(`"${key}" must be ${what} (got ${typeof value === 'number' ? String(value) : describe(value)})`);
  }
}

function checkType(options: CheckedOptions, key: keyof CheckedOptions, type: 'boolean' | 'function' | 'object'): void {
  const value = options[key];
  if (value === undefined) return;
  const ok = type === 'object' ? isObject(value) : typeof value === type;
  if (!ok) throw invalid(`"${key}" must be ${type === 'object' ? 'an object' : `a ${type}`} (got ${describe(value)})`);
}

/**
 * Checks a model name and `LLM` options before any request, and returns the absolute endpoint root.
 * Every failure is a `PagentError{code: "config", where: "llm"}` whose message names the field; secret
 * values (the key, header values) are never quoted.
 *
 * @throws {PagentError}
 */
export function checkLLMOptions(model: unknown, options: unknown): URL {
  if (typeof model !== 'string' || model.trim() === '') {
    throw invalid(`"model" must be a non-empty string (got ${describe(model)})`);
  }
  if (!isObject(options)) {
    throw invalid(`options with a "baseURL" are required, e.g. new LLM('${model}', { baseURL: 'https://api.openai.com/v1' })`);
  }
  const o = options as CheckedOptions;
  const root = checkBaseURL(o.baseURL);
  if (o.apiKey !== undefined) {
    if (typeof o.apiKey !== 'string') throw invalid(`"apiKey" must be a string (got ${describe(o.apiKey)})`);
    if (!HEADER_VALUE.test(o.apiKey.trim())) {
      throw invalid('"apiKey" has characters no HTTP header can carry (a line break, or a character outside Latin-1): check that only the key was pasted');
    }
  }
  if (o.headers !== undefined) {
    if (!isObject(o.headers)) throw invalid(`"headers" must be an object of header names to strings (got ${describe(o.headers)})`);
    for (const [name, value] of Object.entries(o.headers)) {
      if (!HEADER_NAME.test(name)) throw invalid(`"headers" has an invalid header name ${describe(name)}`);
      if (typeof value !== 'string') throw invalid(`"headers.${name}" must be a string (got ${describe(value)})`);
      if (!HEADER_VALUE.test(value)) throw invalid(`"headers.${name}" has characters no HTTP header can carry (a line break, or a character outside Latin-1)`);
    }
  }
  checkType(o, 'fetch', 'function');
  checkType(o, 'onRetry', 'function');
  checkType(o, 'requestKwargs', 'object');
  checkType(o, 'includeUsage', 'boolean');
  checkType(o, 'reasoningTags', 'boolean');
  checkNumber(o, 'retries', 'integer');
  checkNumber(o, 'retryBaseMs', 'non-negative');
  checkNumber(o, 'maxRetryDelayMs', 'non-negative');
  checkNumber(o, 'timeoutMs', 'non-negative');
  checkNumber(o, 'maxEventBytes', 'positive-integer');
  return root;
}
