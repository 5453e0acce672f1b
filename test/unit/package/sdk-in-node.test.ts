import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// `npm test` builds first (pretest), so these check the files a consumer imports, not the sources.
const dist = new URL('../../../dist/', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
  exports: Record<string, { types?: string; default?: string } | string>;
};

describe('the built package', () => {
  it('has every file its exports map names', () => {
    for (const [subpath, target] of Object.entries(pkg.exports)) {
      if (typeof target === 'string') continue;
      for (const file of [target.types, target.default]) {
        expect(file, subpath).toBeDefined();
        expect(existsSync(new URL(`../../../${file}`, import.meta.url)), `${subpath} → ${file}`).toBe(true);
      }
    }
  });

  it('imports the SDK in Node without lit and without DOM globals', async () => {
    expect(typeof (globalThis as { document?: unknown }).document).toBe('undefined');
    expect(typeof (globalThis as { customElements?: unknown }).customElements).toBe('undefined');
    const sdk = (await import(new URL('index.js', dist).href)) as Record<string, unknown>;
    for (const name of [
      'decodeEventLine',
      'encodeEventLine',
      'eventToRpc',
      'rpcToEvent',
      'createWireDecoder',
      'decodeWireStream',
      'WireClient',
      'decodeWebSocket',
      'encodeStream',
      'encodeStreamHeaders',
      'WireDecodeError',
      'PagentError',
      'LLM',
      'OpenAI',
      'DeepSeek',
      'Moonshot',
      'OpenRouter',
      'Groq',
      'Mistral',
      'Ollama',
      'LMStudio',
      'Vllm',
      'Sglang',
      'LlamaCpp',
      'tool',
      'Session',
      'SlidingWindowSession',
      'CompactingSession',
      'Agent',
      'createSessionStore',
    ]) {
      expect(sdk[name], name).toBeTypeOf('function');
    }
    // the SDK entry and every chunk it pulls in stay free of lit
    const seen = new Set<string>();
    const visit = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      const code = readFileSync(new URL(file, dist), 'utf8');
      expect(code, file).not.toMatch(/from\s*["'](lit|@lit\/)/);
      for (const m of code.matchAll(/from\s*["']\.\/([^"']+)["']/g)) visit(m[1]!);
    };
    visit('index.js');
    expect(seen.size).toBeGreaterThan(0);
  });

  it('decodes a pagent line and runs a decoder over a stream in Node', async () => {
    const { decodeEventLine, decodeWireStream } = (await import(new URL('index.js', dist).href)) as typeof import('../../../src/index.js');
    expect(decodeEventLine('{"jsonrpc": "2.0", "method": "TurnBegin", "params": {"turn": 0}}')).toEqual({
      method: 'TurnBegin',
      params: { turn: 0 },
    });
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode('{"jsonrpc":"2.0","method":"TextDelta","params":{"text":"hi"}}\n'));
        c.close();
      },
    });
    const methods: string[] = [];
    for await (const e of decodeWireStream(body)) methods.push(e.method);
    // a delta outside a run opens one; EOF cuts it
    expect(methods).toEqual(['RunBegin', 'TextDelta', 'RunError', 'RunEnd']);
  });
});
