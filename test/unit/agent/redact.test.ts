import { describe, expect, it } from 'vitest';
import { createRedactor, isSecretLike, secretHeaderValues } from '../../../src/agent/redact.js';
import { LLM } from '../../../src/agent/llm/llm.js';
import { PagentError } from '../../../src/errors.js';

const KEY = 'sk-proj-Q9x2LmA7vB3nR8tY1wZ4';

// issue 10, item 6: redact real secrets, not common words.
describe('which values are secrets', () => {
  it('treats placeholders and short words as no secret', () => {
    for (const value of ['ollama', 'k', 'EMPTY', 'lm-studio', 'sk-no-key-required', 'none', 'password', 'changeme']) {
      expect(isSecretLike(value), value).toBe(false);
    }
  });

  it('treats real keys as secrets', () => {
    for (const value of [KEY, 'token-abc123', 'gsk_4f7a9c2e', 'AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY', 'a'.repeat(24)]) {
      expect(isSecretLike(value), value).toBe(true);
    }
  });
});

describe('createRedactor', () => {
  it('leaves text alone when the key is a placeholder: "ollama pull", "Network"', () => {
    expect(createRedactor(['ollama']).redact('Run `ollama pull llama3` first')).toBe('Run `ollama pull llama3` first');
    expect(createRedactor(['k']).redact('Network error')).toBe('Network error');
  });

  it('redacts a real key wherever it appears', () => {
    const r = createRedactor([KEY]);
    expect(r.redact(`Bearer ${KEY}; again:${KEY}x`)).toBe('Bearer [redacted]; again:[redacted]x');
  });


  it('redacts a key split across streamed pieces, holding back only what could start it', () => {
    const r = createRedactor([KEY]).stream();
    const out = [r.push('The key is s'), r.push('k-proj-Q9x2'), r.push('LmA7vB3nR8tY1wZ4 and more'), r.end()];
    expect(out.join('')).toBe('The key is [redacted] and more');
    expect(out[0]).toBe('The key is ');
    // text that cannot start the key is not held
    const plain = createRedactor([KEY]).stream();
    expect(plain.push('Hello world')).toBe('Hello world');
    expect(plain.end()).toBe('');
  });

  it('is a no-op without secrets', () => {
    const r = createRedactor(['', 'ollama']);
    expect(r.redact('anything')).toBe('anything');
    expect(r.stream().push('s')).toBe('s');
  });
});

describe('LLM error messages with a placeholder key', () => {
  it('keeps "ollama pull" readable when the key is "ollama"', async () => {
    const fetchImpl = (async () =>
      new Response(JSON.stringify({ error: { message: 'model "llama3" not found, try pulling it first: ollama pull llama3' } }), {
        status: 404,
        headers: { 'Content-Type': 'application/json' },
      })) as typeof fetch;
    const llm = new LLM('llama3', { baseURL: 'http://localhost:11434/v1', apiKey: 'ollama', fetch: fetchImpl });
    const error = await llm.complete({ messages: [{ role: 'user', content: 'Hi' }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PagentError);
    expect((error as PagentError).message).toContain('ollama pull llama3');
    expect((error as PagentError).message).not.toContain('[redacted]');
  });
});

// issue 22, item 9: a key is redacted wherever it occurs, and so are the copies a URL or a header carries.
describe('redaction of every copy of a key', () => {
  const SHORT = 'sk-Q9x2LmA7vB3n'; // under 24 characters
  const SYMBOLS = 'k3y+Ab/9xZ=Qw~7'; // characters that URL and base64 encodings change
  const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
  const b64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

  it('redacts a short key inside a longer word too', () => {
    const r = createRedactor([SHORT, 'token-abc123']);
    expect(r.redact(`x${SHORT}y and mytoken-abc1234`)).toBe('x[redacted]y and my[redacted]4');
  });

  it('redacts its URL-encoded copy', () => {
    const r = createRedactor([SYMBOLS]);
    const encoded = encodeURIComponent(SYMBOLS);
    expect(encoded).not.toBe(SYMBOLS);
    expect(r.redact(`GET /v1/models?key=${encoded}&x=1`)).toBe('GET /v1/models?key=[redacted]&x=1');
  });

  it('redacts its base64 and base64url copies wherever it starts in a 3-byte group, but for at most two characters at each end', () => {
    for (const key of [SHORT, SYMBOLS, 'ключ-Ab12cd34', 'Zz9'.repeat(9)]) {
      const r = createRedactor([key]);
      for (const before of ['', 'u:', 'ab:', 'user:', 'Basic:x']) {
        for (const after of ['', '!', '@host', '\n']) {
          for (const encode of [b64, b64url]) {
            const copy = encode(before + key + after);
            const out = r.redact(`Authorization: Basic ${copy} end`);
            expect(out, `${key} ${before} ${after}`).toMatch(/^Authorization: Basic [\w+/=-]*\[redacted\][\w+/=-]* end$/);
            const [head, tail] = out.slice('Authorization: Basic '.length, -' end'.length).split('[redacted]') as [string, string];
            // what stays: the neighbours' characters and at most two characters of the key's own at each end
            expect(head.length, `${key} ${before}`).toBeLessThanOrEqual(Math.ceil((before.length * 4) / 3) + 1);
            expect(tail.replace(/=+$/, '').length, `${key} ${after}`).toBeLessThanOrEqual(Math.ceil((new TextEncoder().encode(after).length * 4) / 3) + 2);
          }
        }
      }
    }
  });

  it('catches a base64 copy split across streamed pieces', () => {
    const copy = b64(`user:${SHORT}`);
    const r = createRedactor([SHORT]).stream();
    const pieces = [copy.slice(0, 5), copy.slice(5, 9), copy.slice(9)].map((p) => r.push(p));
    const out = pieces.join('') + r.end();
    expect(out).toContain('[redacted]');
    expect(out.length).toBeLessThan(copy.length);
  });

  it('never redacts a value shorter than 8 characters, so a one-character "key" leaves the text alone', () => {
    for (const key of ['k', 'a1', 'Ab3x9Zq']) expect(createRedactor([key]).redact(`Kak a1 Ab3x9Zq ${b64(key)}`)).toBe(`Kak a1 Ab3x9Zq ${b64(key)}`);
  });
});

describe('which header values are secrets', () => {
  it('every header but those that describe the request, with the credential after an auth scheme alone too', () => {
    expect(secretHeaderValues({
      Authorization: 'Bearer tok_9XyZ8wV7',
      'X-Api-Key': 'mcp-Key-7f3a9Q2x',
      'X-Tenant-Secret': 'Tenant42abc',
      Accept: 'application/json',
      'Content-Type': 'application/json',
      'anthropic-version': '2023-06-01',
      'MCP-Protocol-Version': '2025-06-18',
    })).toEqual(['Bearer tok_9XyZ8wV7', 'tok_9XyZ8wV7', 'mcp-Key-7f3a9Q2x', 'mcp-Key-7f3a9Q2x', 'Tenant42abc', 'Tenant42abc']);
  });

  it('an LLM redacts a custom header whose name says nothing of secrets', async () => {
    const fetchImpl = (async (_url: string, init?: RequestInit) =>
      new Response(JSON.stringify({ error: { message: `bad gateway key ${new Headers(init?.headers).get('x-gw')}` } }), { status: 403, headers: { 'Content-Type': 'application/json' } })) as typeof fetch;
    const llm = new LLM('m', { baseURL: 'https://api.example.com/v1', headers: { 'X-Gw': 'gw-7Hq2Lp9Xz' }, fetch: fetchImpl, retries: 0 });
    const error = await llm.complete({ messages: [{ role: 'user', content: 'Hi' }] }).catch((e: unknown) => e);
    expect((error as PagentError).message).toContain('bad gateway key [redacted]');
  });
});
