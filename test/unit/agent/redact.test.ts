import { describe, expect, it } from 'vitest';
import { createRedactor, isSecretLike } from '../../../src/agent/redact.js';
import { LLM } from '../../../src/agent/llm.js';
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

  it('redacts a short random key only as a whole token, never inside a longer word', () => {
    const r = createRedactor(['token-abc123']);
    expect(r.redact('key=token-abc123, not mytoken-abc1234')).toBe('key=[redacted], not mytoken-abc1234');
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
