import { afterEach, describe, expect, it } from 'vitest';
import { createSessionStore, type SessionStore } from '../../../src/store/index.js';
import { Agent } from '../../../src/agent/agent.js';
import type { PagentError } from '../../../src/errors.js';
import { scriptedModel } from '../../unit/agent/scripted-model.js';
import { LLM } from '../../../src/agent/llm/llm.js';
import { tool } from '../../../src/agent/tools/tools.js';
import type { ChatMessage } from '../../../src/agent/messages.js';
import { uniqueName } from './helpers.js';

const enc = new TextEncoder();
const text = (delta: Record<string, unknown>, finish: string | null = null): string =>
  `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const frame = (delta: Record<string, unknown>, finish: string | null = null): Uint8Array => enc.encode(text(delta, finish));

/**
 * A provider that answers the first request with a tool call and the second with text that streams one
 * word and then hangs until the request is aborted (`mode: 'hang'`) or answers it with HTTP 500 (`'fail'`).
 */
function provider(mode: 'hang' | 'fail'): typeof fetch {
  let calls = 0;
  return async (_url, init) => {
    calls += 1;
    if (calls === 1) {
      const body = new Blob([
        text({ role: 'assistant', tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{}' } }] }),
        text({}, 'tool_calls'),
        'data: [DONE]\n\n',
      ]).stream();
      return new Response(body, { headers: { 'Content-Type': 'text/event-stream' } });
    }
    if (mode === 'fail') return new Response('{"error":{"message":"overloaded"}}', { status: 500 });
    const signal = init?.signal;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(frame({ role: 'assistant', content: 'partial ' }));
        signal?.addEventListener('abort', () => controller.error(signal.reason));
      },
    });
    return new Response(body, { headers: { 'Content-Type': 'text/event-stream' } });
  };
}

/** Every assistant tool_calls message is followed by a result for each call. */
function dangling(messages: readonly ChatMessage[]): string[] {
  const open: string[] = [];
  for (const m of messages) {
    if (m.role === 'assistant') {
      if (open.length > 0) return open;
      for (const c of m.tool_calls ?? []) open.push(c.id);
    } else if (m.role === 'tool') {
      const i = open.indexOf(m.tool_call_id);
      if (i >= 0) open.splice(i, 1);
    } else if (open.length > 0) return open;
  }
  return open;
}

const stores: SessionStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
});

function setup(mode: 'hang' | 'fail'): { agent: Agent; store: SessionStore } {
  const store = createSessionStore({ name: uniqueName('wiring') });
  stores.push(store);
  const lookup = tool({ name: 'lookup', description: 'Looks up.', parameters: { type: 'object' }, execute: () => 'found' });
  const llm = new LLM('scripted', { baseURL: 'https://llm.invalid/v1', fetch: provider(mode), retries: 0 });
  return { agent: new Agent({ llm, tools: [lookup], store, sessionId: 'run' }), store };
}

describe('agent runs saved through the store', () => {
  it('stores the same valid conversation as the agent holds after a run cancelled mid-answer', async () => {
    const { agent, store } = setup('hang');
    const controller = new AbortController();
    let end: string | undefined;
    for await (const event of agent.events('go', { signal: controller.signal })) {
      if (event.method === 'TextDelta') controller.abort();
      if (event.method === 'RunEnd') end = event.params.stop_reason;
    }
    expect(end).toBe('cancelled');
    await agent.whenSaved(); // saving runs in the background, behind the events
    const stored = (await store.load('run'))!.messages;
    expect(stored).toEqual(agent.session.messages);
    expect(stored.slice(0, 3).map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(dangling(stored)).toEqual([]);
  });

  it('stores the same valid conversation as the agent holds after a run that failed', async () => {
    const { agent, store } = setup('fail');
    await expect(agent.run('go')).rejects.toMatchObject({ code: 'http' });
    const stored = (await store.load('run'))!.messages;
    expect(stored).toEqual(agent.session.messages);
    expect(stored.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(dangling(stored)).toEqual([]);
  });
});

describe('agent saves after the stored session was deleted', () => {
  it('rewrites the whole conversation at the next run when another store instance deleted it', async () => {
    const name = uniqueName('wiring-deleted');
    const store = createSessionStore({ name });
    const other = createSessionStore({ name });
    stores.push(store, other);
    const errors: PagentError[] = [];
    const llm = scriptedModel([{ text: ['first answer'] }, { text: ['second answer'] }, { text: ['third answer'] }]);
    const agent = new Agent({ llm, store, sessionId: 'chat', onStoreError: (e) => errors.push(e) });
    await agent.run('one');
    expect((await store.load('chat'))!.messages).toHaveLength(2);
    await other.delete('chat');
    await agent.run('two');
    expect((await other.load('chat'))?.messages).toEqual(agent.session.messages);
    expect(agent.session.messages).toHaveLength(4);
    await agent.run('three');
    expect((await other.load('chat'))?.messages).toEqual(agent.session.messages);
    expect(agent.session.messages.map((m) => m.content)).toEqual(['one', 'first answer', 'two', 'second answer', 'three', 'third answer']);
    expect(errors.map((e) => (e as { reason?: string }).reason)).toEqual(['deleted']);
  });

  it('rewrites the whole conversation at the next run after the whole database was deleted', async () => {
    const name = uniqueName('wiring-dropped');
    const store = createSessionStore({ name });
    stores.push(store);
    const errors: PagentError[] = [];
    const llm = scriptedModel([{ text: ['first answer'] }, { text: ['second answer'] }]);
    const agent = new Agent({ llm, store, sessionId: 'chat', onStoreError: (e) => errors.push(e) });
    await agent.run('one');
    await new Promise<void>((resolve, reject) => {
      const request = indexedDB.deleteDatabase(name);
      request.onsuccess = () => resolve();
      request.onerror = () => reject(request.error);
    });
    await agent.run('two');
    const reader = createSessionStore({ name });
    stores.push(reader);
    expect((await reader.load('chat'))?.messages).toEqual(agent.session.messages);
    expect(agent.session.messages.map((m) => m.content)).toEqual(['one', 'first answer', 'two', 'second answer']);
    expect(errors.map((e) => (e as { reason?: string }).reason)).toEqual(['deleted']);
  });
});
