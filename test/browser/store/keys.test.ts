import { afterEach, describe, expect, it } from 'vitest';
import { createKeyStore, createSessionStore, type SessionStore } from '../../../src/store/index.js';
import { StoreError } from '../../../src/errors.js';
import { Agent } from '../../../src/agent/agent.js';
import { LLM } from '../../../src/agent/llm/llm.js';
import { tool } from '../../../src/agent/tools/tools.js';
import { rawEntries, uniqueName } from './helpers.js';

const API_KEY = 'sk-test-9f8e7d6c5b4a-DO-NOT-STORE';

function sse(chunks: unknown[]): Response {
  const body = chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('') + 'data: [DONE]\n\n';
  return new Response(body, { headers: { 'Content-Type': 'text/event-stream' } });
}
const delta = (d: Record<string, unknown>, finish: string | null = null) => ({
  id: 'x',
  object: 'chat.completion.chunk',
  choices: [{ index: 0, delta: d, finish_reason: finish }],
});

/** A scripted provider: first a tool call, then an answer. It checks the key arrives as a header. */
function scriptedFetch(seenKeys: string[]): typeof fetch {
  let call = 0;
  return async (_url, init) => {
    seenKeys.push(new Headers(init?.headers).get('Authorization') ?? '');
    call += 1;
    if (call % 2 === 1) {
      return sse([
        delta({ role: 'assistant', reasoning_content: 'need the tool 🤔' }),
        delta({ tool_calls: [{ index: 0, id: `call_${call}`, type: 'function', function: { name: 'lookup', arguments: '{"q":"鍵"}' } }] }),
        delta({}, 'tool_calls'),
      ]);
    }
    return sse([delta({ role: 'assistant', content: '答え: 42 🎉' }), delta({}, 'stop')]);
  };
}

const stores: SessionStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
});

describe('API keys and storage', () => {
  it('never writes the API key into a session record after an agent run with that key', async () => {
    const store = createSessionStore({ name: uniqueName('keys') });
    stores.push(store);
    const seen: string[] = [];
    const llm = new LLM('scripted', { baseURL: 'https://llm.invalid/v1', apiKey: API_KEY, fetch: scriptedFetch(seen) });
    const lookup = tool({
      name: 'lookup',
      description: 'Looks something up.',
      parameters: { type: 'object', properties: { q: { type: 'string' } } },
      execute: () => 'found it',
    });
    const agent = new Agent({ llm, tools: [lookup], store, sessionId: 'with-key' });
    const end = await agent.run('何ですか?');
    expect(end.content).toBe('答え: 42 🎉');
    expect(seen).toEqual([`Bearer ${API_KEY}`, `Bearer ${API_KEY}`]);

    const records = await rawEntries(store.name);
    expect(records.length).toBeGreaterThan(1);
    const dump = JSON.stringify(records);
    expect(dump).toContain('found it');
    expect(dump).not.toContain(API_KEY);
    expect(dump).not.toContain('9f8e7d6c5b4a');
    expect((await store.load('with-key'))!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(await store.export('with-key')).not.toContain(API_KEY);
  });

  it('remembers a key only when asked, in its own database, and forgets it', async () => {
    const sessions = createSessionStore({ name: uniqueName('sessions') });
    stores.push(sessions);
    const keys = createKeyStore({ name: uniqueName('keys') });
    expect(await keys.recall('openai')).toBeUndefined();
    await keys.remember('openai', API_KEY);
    await sessions.append('s', [{ role: 'user', content: 'hi' }]);
    expect(await keys.recall('openai')).toBe(API_KEY);
    expect(await keys.labels()).toEqual(['openai']);
    // clearing sessions leaves the key; the session database never holds it
    expect(JSON.stringify(await rawEntries(sessions.name))).not.toContain(API_KEY);
    await sessions.clear();
    expect(await keys.recall('openai')).toBe(API_KEY);
    await keys.forget('openai');
    expect(await keys.recall('openai')).toBeUndefined();
    await keys.remember('a', 'k1');
    await keys.remember('b', 'k2');
    await keys.forgetAll();
    expect(await keys.labels()).toEqual([]);
  });

  it('rejects an empty key or label with a StoreError that does not echo the input', async () => {
    const keys = createKeyStore({ name: uniqueName('keys') });
    const err = await keys.remember('', API_KEY).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(StoreError);
    expect((err as StoreError).reason).toBe('invalid');
    expect((err as StoreError).message).not.toContain(API_KEY);
    await expect(keys.remember('label', '')).rejects.toMatchObject({ name: 'StoreError', reason: 'invalid' });
  });
});
