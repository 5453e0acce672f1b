// What goes wrong with the Responses and Anthropic Messages APIs, against the local servers
// (test/server/model-apis.ts): error events mid-stream, rate limits with Retry-After, Anthropic's 529
// overloaded_error, a cut stream, a stream without its last event, an abort. The key is in no message.
import { describe, expect, inject, it } from 'vitest';
import { Agent } from '../../../src/agent/agent.js';
import { LLM, type LLMOptions, type LLMRetryInfo, type LLMStreamEvent } from '../../../src/agent/llm/llm.js';
import type { ModelApiName } from '../../../src/agent/llm/model-api.js';
import { HttpError, PagentError } from '../../../src/errors.js';
import type { WireEvent } from '../../../src/wire/events.js';

const api = inject('apiUrl');
const KEY = 'sk-ant-api03-SECRET-0123456789abcdef';
const USER = [{ role: 'user' as const, content: 'Hi' }];
const PATH: Record<string, string> = { responses: 'responses', 'anthropic-messages': 'messages' };

let counter = 0;
function scripted(name: ModelApiName, steps: string, options: Partial<LLMOptions> = {}) {
  const key = `fault${(counter++).toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  const llm = new LLM('scripted-model', { baseURL: `${api}/apis/${key}/${steps}/v1`, api: name, apiKey: KEY, retryBaseMs: 1, ...options });
  const attempts = async (): Promise<{ count: number }> => (await (await fetch(`${api}/apis/attempts/${key}`)).json()) as { count: number };
  return { llm, attempts, url: `${api}/apis/${key}/${steps}/v1/${PATH[name]}` };
}

async function collect(it: AsyncIterable<LLMStreamEvent>): Promise<{ events: LLMStreamEvent[]; error: unknown }> {
  const events: LLMStreamEvent[] = [];
  try {
    for await (const e of it) events.push(e);
  } catch (error) {
    return { events, error };
  }
  return { events, error: undefined };
}

const textOf = (events: LLMStreamEvent[]): string => events.map((e) => (e.type === 'text' ? e.text : '')).join('');

function expectNoKey(error: unknown): void {
  expect(error).toBeInstanceOf(PagentError);
  const e = error as PagentError;
  for (const text of [e.message, String(e), JSON.stringify(e), e.stack ?? '', JSON.stringify({ ...e })]) {
    expect(text).not.toContain(KEY);
    expect(text).not.toContain('SECRET-0123');
  }
}

const ERROR_MID: Record<string, string> = {
  responses: 'Provider error in the stream: The server had an error while processing your request. (code server_error)',
  'anthropic-messages': 'Provider error in the stream: Overloaded (overloaded_error)',
};
const STREAM_END: Record<string, string> = { responses: 'a response.completed event', 'anthropic-messages': 'a message_stop event' };

for (const name of ['responses', 'anthropic-messages'] as const) {
  describe(`${name}: faults`, () => {
    it('fails on an error event mid-stream after the text before it, not retried', async () => {
      const { llm, attempts } = scripted(name, 'error-mid,parity-2');
      const { events, error } = await collect(llm.stream({ messages: USER }));
      expect(textOf(events)).toBe('Partial answer');
      expect(events.some((e) => e.type === 'step')).toBe(false);
      expect((error as PagentError).code).toBe('provider');
      expect((error as PagentError).where).toBe('llm');
      expect((error as PagentError).message).toBe(ERROR_MID[name]);
      expectNoKey(error);
      expect((await attempts()).count).toBe(1);
    });

    it('ends the agent run with RunError then RunEnd{error}, which carries the partial answer', async () => {
      const { llm } = scripted(name, 'error-mid');
      const agent = new Agent({ llm });
      const events: WireEvent[] = [];
      for await (const e of agent.events('Hi')) events.push(e);
      expect(events.map((e) => e.method).filter((m) => m !== 'TextDelta')).toEqual(['RunBegin', 'TurnBegin', 'RunError', 'TurnEnd', 'RunEnd']);
      expect(events.find((e) => e.method === 'RunError')?.params).toEqual({ message: ERROR_MID[name], code: 'provider', where: 'llm' });
      expect(events.at(-1)?.params).toMatchObject({ content: 'Partial answer', stop_reason: 'error' });
    });

    it('retries a 429 after its Retry-After, then streams the answer', async () => {
      const retries: LLMRetryInfo[] = [];
      const { llm, attempts } = scripted(name, 's429-ra0,parity-2', { retryBaseMs: 10_000, onRetry: (i) => retries.push(i) });
      const step = await llm.complete({ messages: USER });
      expect(step.content).toBe('Paris is 18 °C. The explosion failed: boom: asked.');
      expect(step.finish_reason).toBe('stop');
      expect(retries.map((r) => [r.attempt, r.delayMs, r.error.status])).toEqual([[1, 0, 429]]);
      expect((await attempts()).count).toBe(2);
    });

    it('fails at once with the 429 when Retry-After is longer than maxRetryDelayMs', async () => {
      const { llm, attempts } = scripted(name, 's429-ra120,parity-2');
      const { error } = await collect(llm.stream({ messages: USER }));
      expect(error).toBeInstanceOf(HttpError);
      expect((error as HttpError).status).toBe(429);
      expectNoKey(error);
      expect((await attempts()).count).toBe(1);
    });

    it('reports a stream cut after its first bytes as a network error, not retried', async () => {
      const { llm, attempts } = scripted(name, 'cut-parity-2,parity-2');
      const { events, error } = await collect(llm.stream({ messages: USER }));
      expect(events.some((e) => e.type === 'reasoning')).toBe(true);
      expect((error as PagentError).code).toBe('network');
      expect((error as PagentError).message).toMatch(/after \d+ bytes of the stream/);
      expectNoKey(error);
      expect((await attempts()).count).toBe(1);
    });

    it("reports a stream that ended without the API's last event as truncated", async () => {
      const { llm, url } = scripted(name, 'end-parity-2');
      const { error } = await collect(llm.stream({ messages: USER }));
      expect((error as PagentError).code).toBe('truncated');
      expect((error as PagentError).message).toMatch(new RegExp(`^The model stream from POST ${url} ended after \\d+ bytes without ${STREAM_END[name]}$`));
    });

    it('stops at once on abort: the stream throws the reason, the agent ends its run cancelled', async () => {
      const { llm } = scripted(name, 'stall-parity-2');
      const controller = new AbortController();
      const reason = new DOMException('user stop', 'AbortError');
      const events: LLMStreamEvent[] = [];
      let error: unknown;
      try {
        for await (const e of llm.stream({ messages: USER, signal: controller.signal })) {
          events.push(e);
          controller.abort(reason);
        }
      } catch (err) {
        error = err;
      }
      expect(error).toBe(reason);
      expect(events).toHaveLength(1);

      const agent = new Agent({ llm: scripted(name, 'stall-parity-2').llm });
      const stop = new AbortController();
      const run: WireEvent[] = [];
      for await (const e of agent.events('Hi', { signal: stop.signal })) {
        run.push(e);
        if (e.method === 'ReasoningDelta') stop.abort();
      }
      expect(run.some((e) => e.method === 'RunError')).toBe(false);
      expect(run.at(-1)?.params).toMatchObject({ stop_reason: 'cancelled' });
    });

    it('keeps the key out of an HTTP error whose body echoes it', async () => {
      const { llm } = scripted(name, 'echo401');
      const { error } = await collect(llm.stream({ messages: USER }));
      expect((error as HttpError).status).toBe(401);
      expect((error as HttpError).message).toContain('[redacted]');
      expect((error as HttpError).message).toContain('Check the API key');
      expectNoKey(error);
    });
  });
}

describe('anthropic-messages: overloaded', () => {
  it('retries a 529 overloaded_error, and reports it with the provider message when retries run out', async () => {
    const retries: LLMRetryInfo[] = [];
    const ok = scripted('anthropic-messages', 's529,parity-4', { onRetry: (i) => retries.push(i) });
    expect((await ok.llm.complete({ messages: USER })).content).toBe('Tokyo is 21 °C.');
    expect(retries.map((r) => r.error.status)).toEqual([529]);
    expect((await ok.attempts()).count).toBe(2);

    const { llm, attempts, url } = scripted('anthropic-messages', 's529', { retries: 1 });
    const { error } = await collect(llm.stream({ messages: USER }));
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).message).toBe(`HTTP 529 from POST ${url}: Overloaded.`);
    expectNoKey(error);
    expect((await attempts()).count).toBe(2);
  });
});

describe('responses: a failed response', () => {
  it('fails with the response error, after the text before it', async () => {
    const { llm } = scripted('responses', 'failed');
    const { events, error } = await collect(llm.stream({ messages: USER }));
    expect(textOf(events)).toBe('Hel');
    expect((error as PagentError).code).toBe('provider');
    expect((error as PagentError).message).toBe('Provider error in the stream: Rate limit reached for requests (code rate_limit_exceeded)');
  });
});
