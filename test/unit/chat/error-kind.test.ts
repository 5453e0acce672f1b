import { describe, expect, it } from 'vitest';
import { errorKind, errorSentence, type ErrorKind } from '../../../src/chat/error-kind.js';
import { stringsFor } from '../../../src/chat/i18n.js';
import ja from '../../../src/chat/locales/ja.js';
import zhCN from '../../../src/chat/locales/zh-CN.js';

const KINDS: ErrorKind[] = [
  'unreachable', 'cors', 'auth', 'not-found', 'rate-limit', 'server', 'http', 'cut', 'timeout',
  'provider', 'decode', 'redirect', 'config', 'store', 'store-blocked', 'no-source', 'other',
];

describe('error kinds (issue 10, item 14)', () => {
  it('has a sentence for every kind in every built-in language', () => {
    for (const strings of [stringsFor('en'), zhCN, ja]) {
      const sentences = KINDS.map((k) => errorSentence(k, 503, strings));
      for (const [i, s] of sentences.entries()) expect(s.length, KINDS[i]).toBeGreaterThan(1);
      expect(new Set(sentences).size).toBe(KINDS.length);
    }
  });

  it('classifies by code, status and the SDK message', () => {
    const kind = (code: string, status: number | undefined, message = '') => errorKind({ code, status, message });
    expect([kind('http', 401), kind('http', 403), kind('http', 404), kind('http', 429), kind('http', 502), kind('http', 400)]).toEqual([
      'auth', 'auth', 'not-found', 'rate-limit', 'server', 'http',
    ]);
    expect(kind('network', undefined, 'POST http://x failed (before any response; TypeError: Failed to fetch): nothing answered.')).toBe('unreachable');
    expect(kind('network', undefined, 'POST http://x failed (…), though the server answers: the browser withheld the response (CORS). …')).toBe('cors');
    expect(kind('network', undefined, 'Network error while reading the stream: reset')).toBe('cut');
    expect([kind('truncated', undefined), kind('timeout', undefined), kind('store', undefined, 'did not open within 5000 ms (another tab may be blocking it)')]).toEqual([
      'cut', 'timeout', 'store-blocked',
    ]);
    expect(kind('something-new', undefined)).toBe('other');
  });
});
