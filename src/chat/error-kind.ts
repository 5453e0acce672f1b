/**
 * What kind of failure a `RunError` is, for the one short sentence an error card leads with (the code,
 * status and message stay behind the card's disclosure).
 */
import type { PagentChatStrings } from './i18n.js';

/** The failure kinds an error card tells apart. */
export type ErrorKind =
  | 'unreachable'
  | 'cors'
  | 'auth'
  | 'not-found'
  | 'rate-limit'
  | 'server'
  | 'http'
  | 'cut'
  | 'timeout'
  | 'provider'
  | 'decode'
  | 'redirect'
  | 'config'
  | 'store'
  | 'store-blocked'
  | 'no-source'
  | 'other';

/** The parts of a `RunError` that say what kind it is. */
export interface ErrorFacts {
  readonly code: string;
  readonly status: number | undefined;
  readonly message: string;
}

/**
 * Classifies a failure. `http` goes by status (401/403 key, 404 path, 429 rate limit, 5xx server); a
 * `network` failure is `cors` when the SDK found the server answering (its message names CORS), `cut`
 * when it came after the response began, else `unreachable`; `truncated` is `cut`; a `store` failure is
 * `store-blocked` when another tab holds the database.
 */
export function errorKind({ code, status, message }: ErrorFacts): ErrorKind {
  switch (code) {
    case 'http':
      if (status === 401 || status === 403) return 'auth';
      if (status === 404) return 'not-found';
      if (status === 429) return 'rate-limit';
      if (status !== undefined && status >= 500) return 'server';
      return 'http';
    case 'network':
      if (/after \d+ bytes|before the first byte|while reading/.test(message)) return 'cut';
      return /\bCORS\b/.test(message) ? 'cors' : 'unreachable';
    case 'truncated':
      return 'cut';
    case 'timeout':
      return 'timeout';
    case 'provider':
      return 'provider';
    case 'decode':
      return 'decode';
    case 'redirect':
      return 'redirect';
    case 'config':
      return 'config';
    case 'store':
      return /another tab|blocked|did not open/i.test(message) ? 'store-blocked' : 'store';
    case 'no-source':
      return 'no-source';
    default:
      return 'other';
  }
}


/** The card's short sentence for a kind, in the element's language (`{status}` filled in). */
export function errorSentence(kind: ErrorKind, status: number | undefined, strings: PagentChatStrings): string {
  // "not-found" → errorNotFound, "store-blocked" → errorStoreBlocked; "other" is the generic errorTitle
  const key = kind === 'other' ? 'errorTitle' : (`error${kind.replace(/(^|-)(\w)/g, (_, __: string, c: string) => c.toUpperCase())}` as keyof PagentChatStrings);
  return strings[key]!.replace('{status}', status === undefined ? '?' : String(status));
}
