// A page served over plain http from a LAN address or a host name is not a secure context: it has
// crypto.getRandomValues but no crypto.randomUUID.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RemoteAgent } from '../../../../src/agent/remote/remote-agent.js';
import type { WireEvent } from '../../../../src/wire/events.js';

const withoutRandomUUID = (): void => {
  const { getRandomValues, subtle } = globalThis.crypto;
  vi.stubGlobal('crypto', { getRandomValues: getRandomValues.bind(globalThis.crypto), subtle });
};

/** An AG-UI back end that answers every run with "hi", keeping each request body. */
function agUiServer(bodies: Array<Record<string, unknown>>): typeof fetch {
  return async (_url, init) => {
    const input = JSON.parse(String(init?.body)) as Record<string, unknown>;
    bodies.push(input);
    const events = [
      { type: 'RUN_STARTED', threadId: input['threadId'], runId: input['runId'] },
      { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'hi' },
      { type: 'TEXT_MESSAGE_END', messageId: 'm1' },
      { type: 'RUN_FINISHED', threadId: input['threadId'], runId: input['runId'] },
    ];
    return new Response(events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join(''), {
      headers: { 'Content-Type': 'text/event-stream' },
    });
  };
}

describe('RemoteAgent on a page without crypto.randomUUID', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('starts a conversation, and a new one, with ids of its own', () => {
    withoutRandomUUID();
    const agent = new RemoteAgent({ url: 'http://192.168.1.20/agent', protocol: 'ag-ui' });
    const first = agent.sessionId;
    expect(first).toMatch(/^id-[0-9a-z]+-[0-9a-z]+$/);
    agent.useSession(undefined);
    expect(agent.sessionId).toMatch(/^id-[0-9a-z]+-[0-9a-z]+$/);
    expect(agent.sessionId).not.toBe(first);
  });

  it('sends every AG-UI run a fresh runId', async () => {
    withoutRandomUUID();
    const bodies: Array<Record<string, unknown>> = [];
    const agent = new RemoteAgent({ url: 'http://192.168.1.20/agent', protocol: 'ag-ui', fetch: agUiServer(bodies) });
    const answers: string[] = [];
    for (const input of ['one', 'two']) {
      const events: WireEvent[] = [];
      for await (const event of agent.events(input)) events.push(event);
      expect(events.at(-1)).toMatchObject({ method: 'RunEnd', params: { stop_reason: 'no_tool_calls' } });
      answers.push(events.flatMap((e) => (e.method === 'TextDelta' ? [e.params.text] : [])).join(''));
    }
    expect(answers).toEqual(['hi', 'hi']);
    expect(bodies.map((b) => b['threadId'])).toEqual([agent.sessionId, agent.sessionId]);
    const runIds = bodies.map((b) => b['runId']);
    expect(runIds[0]).toMatch(/^id-[0-9a-z]+-[0-9a-z]+$/);
    expect(runIds[1]).toMatch(/^id-[0-9a-z]+-[0-9a-z]+$/);
    expect(runIds[0]).not.toBe(runIds[1]);
  });
});
