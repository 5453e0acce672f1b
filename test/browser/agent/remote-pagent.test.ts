// RemoteAgent with protocol 'pagent': the server keeps the history, the page sends the new message with the
// server's session id; the conversation is still kept (and stored) in the browser. Also the options every
// protocol shares: headers (a function is called per request) and body.
import { describe, expect, inject, it } from 'vitest';
import { RemoteAgent } from '../../../src/agent/remote/remote-agent.js';
import type { WireEvent } from '../../../src/wire/events.js';

const api = inject('apiUrl');

const line = (method: string, params: Record<string, unknown>): string => JSON.stringify({ jsonrpc: '2.0', method, params }) + '\n';
const answer = (text: string): string =>
  line('RunBegin', { user_input: '' }) +
  line('TurnBegin', { turn: 0 }) +
  line('TextDelta', { text }) +
  line('StepEnd', { content: text, tool_calls: [], reasoning_content: '', usage: null }) +
  line('TurnEnd', { turn: 0, stopped: true, stop_reason: 'no_tool_calls' }) +
  line('RunEnd', { content: text, tool_calls: [], reasoning_content: '', usage: null, stop_reason: 'no_tool_calls', turn: 0 });

async function collect(events: AsyncIterable<WireEvent>): Promise<WireEvent[]> {
  const out: WireEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

describe("RemoteAgent over a pagent server", () => {
  it('sends {message}, then {message, session_id} once the server named its session; keeps the history locally', async () => {
    const key = crypto.randomUUID();
    const script = { headers: { 'Content-Type': 'application/x-ndjson', 'X-Session-Id': 'srv-1' }, body: answer('Hello!') };
    let token = 0;
    const agent = new RemoteAgent({
      url: `${api}/wire/recorded/${key}?s=${encodeURIComponent(JSON.stringify([script]))}`,
      protocol: 'pagent',
      headers: () => ({ 'X-Token': `t${++token}` }),
      body: { locale: 'fr' },
    });
    const first = await collect(agent.events('hi'));
    expect(first.at(-1)).toMatchObject({ method: 'RunEnd', params: { content: 'Hello!', stop_reason: 'no_tool_calls' } });
    await collect(agent.events('again'));
    const bodies = ((await (await fetch(`${api}/wire/recorded/${key}`)).json()) as string[]).map((b) => JSON.parse(b) as unknown);
    expect(bodies).toEqual([
      { locale: 'fr', message: 'hi' },
      { locale: 'fr', message: 'again', session_id: 'srv-1' },
    ]);
    expect(token).toBe(2);
    expect(agent.session.messages).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'Hello!' },
      { role: 'user', content: 'again' },
      { role: 'assistant', content: 'Hello!' },
    ]);
  });

  it('a header function that throws fails the run with its message, the user text kept', async () => {
    const agent = new RemoteAgent({
      url: `${api}/wire/echo`,
      protocol: 'pagent',
      headers: () => {
        throw new Error('no token yet');
      },
    });
    const events = await collect(agent.events('hi'));
    expect(events.map((e) => e.method)).toEqual(['RunBegin', 'RunError', 'RunEnd']);
    expect(events[1]).toMatchObject({ params: { message: expect.stringContaining('no token yet') } });
    expect(agent.session.messages).toEqual([{ role: 'user', content: 'hi' }]);
  });

  it('refuses an unknown protocol and a store without a sessionId at construction', () => {
    expect(() => new RemoteAgent({ url: '/x', protocol: 'grpc' as never })).toThrow(/unknown protocol "grpc"/);
    expect(() => new RemoteAgent({ url: '/x', protocol: 'pagent', store: { load: async () => undefined, append: async () => undefined } })).toThrow(/sessionId/);
  });
});
