import { afterEach, describe, expect, it, vi } from 'vitest';
import { LLM, type LLMOptions } from '../../../../src/agent/llm/llm.js';
import { Ollama, OpenAI } from '../../../../src/agent/llm/presets.js';
import { PagentError } from '../../../../src/errors.js';

/** What the constructor threw, for assertions on its message. */
function thrown(make: () => unknown): PagentError {
  try {
    make();
  } catch (err) {
    expect(err).toBeInstanceOf(PagentError);
    return err as PagentError;
  }
  throw new Error('expected the constructor to throw');
}

const KEY = 'sk-proj-Q9x2LmA7vB3nR8tY1wZ4';

// issue 10, item 12: options are checked up front, with messages that name the field.
describe('LLM options are validated up front', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('names the missing baseURL instead of failing inside the constructor', () => {
    const err = thrown(() => new LLM('m', {} as LLMOptions));
    expect(err.code).toBe('config');
    expect(err.where).toBe('llm');
    expect(err.message).toContain('"baseURL"');
    expect(err.message).not.toContain('Cannot read properties');
    expect(thrown(() => new (LLM as unknown as new (m: string) => LLM)('m')).message).toContain('"baseURL"');
  });

  it('refuses a baseURL without http:// or https:// and suggests the fix', () => {
    const err = thrown(() => new LLM('m', { baseURL: 'localhost:8787/v1' }));
    expect(err.message).toContain('"baseURL"');
    expect(err.message).toContain('http://localhost:8787/v1');
    expect(thrown(() => new LLM('m', { baseURL: 'ftp://example.com/v1' })).message).toContain('http:// or https://');
    expect(thrown(() => new LLM('m', { baseURL: 'not a url' })).message).toContain('"baseURL"');
  });

  it('refuses a baseURL with a user name or password in it (fetch would refuse it on every retry)', () => {
    const err = thrown(() => new LLM('m', { baseURL: `https://user:${KEY}@api.example.com/v1` }));
    expect(err.message).toContain('"baseURL"');
    expect(err.message).not.toContain(KEY);
  });

  it('names the model, the key, headers and numeric options when they are wrong', () => {
    expect(thrown(() => new LLM('', { baseURL: 'https://api.example.com/v1' })).message).toContain('"model"');
    expect(thrown(() => new LLM('m', { baseURL: 'https://a.example/v1', apiKey: 42 as unknown as string })).message).toContain('"apiKey"');
    const newline = thrown(() => new LLM('m', { baseURL: 'https://a.example/v1', apiKey: `${KEY}\nX-Evil: 1` }));
    expect(newline.message).toContain('"apiKey"');
    expect(newline.message).not.toContain(KEY);
    expect(thrown(() => new LLM('m', { baseURL: 'https://a.example/v1', apiKey: 'sk-ключ-0123456789' })).message).toContain('"apiKey"');
    expect(thrown(() => new LLM('m', { baseURL: 'https://a.example/v1', headers: { 'X-Title': 5 as unknown as string } })).message).toContain(
      '"headers.X-Title"',
    );
    expect(thrown(() => new LLM('m', { baseURL: 'https://a.example/v1', headers: { 'bad name': 'x' } })).message).toContain('"headers"');
    expect(thrown(() => new LLM('m', { baseURL: 'https://a.example/v1', retries: -1 })).message).toContain('"retries"');
    expect(thrown(() => new LLM('m', { baseURL: 'https://a.example/v1', retries: 1.5 })).message).toContain('"retries"');
    expect(thrown(() => new LLM('m', { baseURL: 'https://a.example/v1', timeoutMs: Number.NaN })).message).toContain('"timeoutMs"');
    expect(thrown(() => new LLM('m', { baseURL: 'https://a.example/v1', fetch: 'fetch' as unknown as typeof fetch })).message).toContain('"fetch"');
  });

  it('refuses an http:// server that is not local from an https:// page (mixed content never succeeds)', () => {
    vi.stubGlobal('location', new URL('https://app.example.com/chat'));
    expect(thrown(() => new LLM('m', { baseURL: 'http://api.example.com/v1' })).message).toContain('https');
    expect(() => Ollama('llama3')).not.toThrow();
    expect(() => new LLM('m', { baseURL: 'http://127.0.0.1:8000/v1' })).not.toThrow();
  });

  it('accepts the presets and a valid configuration', () => {
    expect(() => OpenAI('gpt-4o-mini', { apiKey: KEY })).not.toThrow();
    expect(new LLM('m', { baseURL: 'https://api.example.com/v1/', retries: 0, timeoutMs: Infinity }).url).toBe(
      'https://api.example.com/v1/chat/completions',
    );
  });

  it('never retries a request that cannot be built: a bad header fails once, not three times', async () => {
    let calls = 0;
    const fetchImpl = (async () => {
      calls++;
      throw new TypeError('Failed to fetch');
    }) as typeof fetch;
    // the key passes validation, so the request is retried as a network failure: 3 calls …
    const llm = new LLM('m', { baseURL: 'https://api.example.com/v1', apiKey: KEY, fetch: fetchImpl, retryBaseMs: 1 });
    await expect(llm.complete({ messages: [{ role: 'user', content: 'Hi' }] })).rejects.toMatchObject({ code: 'network' });
    expect(calls).toBe(3);
    // … while a key that no request can carry is refused before any call
    calls = 0;
    expect(() => new LLM('m', { baseURL: 'https://api.example.com/v1', apiKey: 'sk-\u00ff\u0100', fetch: fetchImpl })).toThrow(PagentError);
    expect(calls).toBe(0);
  });
});
