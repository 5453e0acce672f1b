import { describe, expect, inject, it } from 'vitest';
import { LLM, type LLMOptions, type LLMRetryInfo, type LLMStreamEvent } from '../../../src/agent/llm/llm.js';
import { HttpError, PagentError } from '../../../src/errors.js';
import { QUIRK_STREAMS } from '../../server/llm-quirks.js';

const api = inject('apiUrl');
const KEY = 'sk-test-SECRET-0123456789abcdef';
const USER = [{ role: 'user' as const, content: 'Hi' }];

const expectations = import.meta.glob<Record<string, unknown>>('../../fixtures/providers-real/*.expected.json', { eager: true, import: 'default' });

let keyCounter = 0;
const testKey = (): string => `k${Date.now().toString(36)}${(keyCounter++).toString(36)}${Math.random().toString(36).slice(2, 8)}`;

function scripted(steps: string, options: Partial<LLMOptions> = {}) {
  const key = testKey();
  const llm = new LLM('scripted-model', { baseURL: `${api}/llm/script/${key}/${steps}/v1`, retryBaseMs: 1, ...options });
  const attempts = async () =>
    (await (await fetch(`${api}/llm/attempts/${key}`)).json()) as {
      count: number;
      requests: Array<{ headers: Record<string, string>; body: Record<string, unknown> }>;
      endless?: { sent: number; clientGone: boolean };
    };
  return { llm, attempts };
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

describe('LLM against recorded provider streams (Chromium, cross-origin server)', () => {
  const names = Object.keys(expectations).map((p) => p.replace(/^.*\//, '').replace('.expected.json', ''));

  it('sees all ten recordings', () => {
    expect(names).toHaveLength(10);
  });

  for (const name of names) {
    const expected = Object.fromEntries(Object.entries(expectations[`../../fixtures/providers-real/${name}.expected.json`]!).filter(([k]) => !k.startsWith('_')));
    it(`${name}: streams deltas then one step equal to expected.json`, async () => {
      const llm = new LLM('m', { baseURL: `${api}/llm/real/${name}/v1`, apiKey: KEY, retries: 0 });
      const { events, error } = await collect(llm.stream({ messages: USER }));
      expect(textOf(events)).toBe(expected['content']);
      expect(events.filter((e) => e.type === 'reasoning').map((e) => (e.type === 'reasoning' ? e.text : '')).join('')).toBe(expected['reasoning_content']);
      if (name === 'openrouter-minimax-midstream-error') {
        expect(error).toBeInstanceOf(PagentError);
        expect((error as PagentError).code).toBe('provider');
        expect((error as PagentError).where).toBe('llm');
        expect((error as PagentError).message).toContain('Token limit reached');
        expect(events.some((e) => e.type === 'step')).toBe(false);
      } else {
        expect(error).toBeUndefined();
        const last = events[events.length - 1];
        expect(last?.type).toBe('step');
        expect(events.filter((e) => e.type === 'step')).toHaveLength(1);
        expect(last?.type === 'step' && last.step).toEqual(expected);
      }
    });
  }
});

describe('LLM against synthetic quirk streams', () => {
  for (const [name, q] of Object.entries(QUIRK_STREAMS)) {
    it(`${name}: ${q.quirk}`, async () => {
      const llm = new LLM('m', { baseURL: `${api}/llm/quirk/${name}/v1`, retries: 0 });
      const { events, error } = await collect(llm.stream({ messages: USER }));
      if (q.error) {
        expect((error as PagentError).code).toBe(q.error.code);
        expect((error as PagentError).message).toContain(q.error.message);
      } else if (q.end === 'truncated') {
        expect((error as PagentError).code).toBe('truncated');
        expect(textOf(events)).toBe(q.expected?.content);
      } else {
        expect(error).toBeUndefined();
        const last = events[events.length - 1];
        expect(last?.type === 'step' && last.step).toEqual(q.expected);
      }
    });
  }
});

describe('LLM with <think> tags in the content', () => {
  const baseURL = `${api}/llm/quirk/think-tags-in-content/v1`;

  it('yields the think block as reasoning deltas, then the answer as text deltas, then the step', async () => {
    const { events, error } = await collect(new LLM('m', { baseURL, retries: 0 }).stream({ messages: USER }));
    expect(error).toBeUndefined();
    const kinds = events.map((e) => e.type).filter((t, i, all) => t !== all[i - 1]);
    expect(kinds).toEqual(['reasoning', 'text', 'step']);
    expect(events.map((e) => (e.type === 'reasoning' ? e.text : '')).join('')).toBe('The user greets. Reply kindly.\n');
    expect(textOf(events)).toBe('Hello!');
  });

  it('splits the think block of a non-streamed JSON answer too', async () => {
    const { events, error } = await collect(scripted('jsonthink').llm.stream({ messages: USER }));
    expect(error).toBeUndefined();
    expect(events).toEqual([
      { type: 'reasoning', text: 'Why not.\n' },
      { type: 'text', text: 'Not streamed' },
      { type: 'step', step: { content: 'Not streamed', reasoning_content: 'Why not.\n', tool_calls: [], finish_reason: 'stop', usage: null } },
    ]);
  });

  it('keeps the tags in the content with reasoningTags: false', async () => {
    const step = await new LLM('m', { baseURL, retries: 0, reasoningTags: false }).complete({ messages: USER });
    expect(step.content).toBe('<think>\nThe user greets. Reply kindly.\n</think>\n\nHello!');
    expect(step.reasoning_content).toBe('');
  });
});

describe('LLM requests', () => {
  it('sends the key as a Bearer token and no SDK-specific headers, with kwargs in the body', async () => {
    const { llm, attempts } = scripted('ok', { apiKey: KEY, requestKwargs: { temperature: 0 } });
    const step = await llm.complete({ messages: USER, kwargs: { reasoning_effort: 'high' } });
    expect(step).toEqual({ content: 'Hello world', reasoning_content: '', tool_calls: [], finish_reason: 'stop', usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } });
    const { count, requests } = await attempts();
    expect(count).toBe(1);
    const headers = requests[0]!.headers;
    expect(headers['authorization']).toBe(`Bearer ${KEY}`);
    expect(headers['content-type']).toBe('application/json');
    const browserHeaders = /^(host|connection|content-length|content-type|authorization|accept|accept-encoding|accept-language|origin|referer|user-agent|sec-.*|pragma|cache-control|priority)$/;
    expect(Object.keys(headers).filter((h) => !browserHeaders.test(h))).toEqual([]);
    expect(requests[0]!.body).toEqual({
      model: 'scripted-model',
      messages: USER,
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0,
      reasoning_effort: 'high',
    });
  });

  it('reads a server that answers with one JSON completion instead of a stream', async () => {
    const { llm } = scripted('json');
    const { events, error } = await collect(llm.stream({ messages: USER }));
    expect(error).toBeUndefined();
    expect(events).toEqual([
      { type: 'text', text: 'Not streamed' },
      { type: 'step', step: { content: 'Not streamed', reasoning_content: '', tool_calls: [], finish_reason: 'stop', usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } } },
    ]);
  });
});

describe('LLM retries', () => {
  it('retries 5xx before the first byte and succeeds on the third request', async () => {
    const retries: LLMRetryInfo[] = [];
    const { llm, attempts } = scripted('s503,s500,ok', { onRetry: (i) => retries.push(i) });
    expect((await llm.complete({ messages: USER })).content).toBe('Hello world');
    expect((await attempts()).count).toBe(3);
    expect(retries.map((r) => [r.attempt, r.delayMs, r.error.status])).toEqual([
      [1, 1, 503],
      [2, 2, 500],
    ]);
  });

  it('gives up after `retries` retries with the last HTTP error', async () => {
    const { llm, attempts } = scripted('s503', { retries: 2 });
    const { error } = await collect(llm.stream({ messages: USER }));
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).code).toBe('http');
    expect((error as HttpError).status).toBe(503);
    expect((error as HttpError).where).toBe('llm');
    expect((error as HttpError).message).toContain('scripted 503');
    expect((await attempts()).count).toBe(3);
  });

  it('does not retry a 400', async () => {
    const { llm, attempts } = scripted('s400,ok');
    const { error } = await collect(llm.stream({ messages: USER }));
    expect((error as HttpError).status).toBe(400);
    expect((await attempts()).count).toBe(1);
  });

  it('retries a 429 after the Retry-After the server sent (seconds)', async () => {
    const retries: LLMRetryInfo[] = [];
    const { llm, attempts } = scripted('s429-ra0,ok', { retryBaseMs: 10_000, onRetry: (i) => retries.push(i) });
    expect((await llm.complete({ messages: USER })).content).toBe('Hello world');
    expect(retries.map((r) => r.delayMs)).toEqual([0]);
    expect((await attempts()).count).toBe(2);
  });

  it('honours retry-after-ms', async () => {
    const retries: LLMRetryInfo[] = [];
    const { llm } = scripted('s429-rams3,ok', { onRetry: (i) => retries.push(i) });
    await llm.complete({ messages: USER });
    expect(retries.map((r) => r.delayMs)).toEqual([3]);
  });

  it('reads Retry-After in seconds and as an HTTP date, and aborting during the backoff stops at once', async () => {
    for (const [step, low, high] of [
      ['s429-ra30', 30_000, 30_000],
      ['s503-radate40', 38_000, 40_000],
    ] as const) {
      const controller = new AbortController();
      const reason = new DOMException('stop', 'AbortError');
      const delays: number[] = [];
      const { llm, attempts } = scripted(`${step},ok`, {
        onRetry: (i) => {
          delays.push(i.delayMs);
          controller.abort(reason);
        },
      });
      const { error } = await collect(llm.stream({ messages: USER, signal: controller.signal }));
      expect(error).toBe(reason);
      expect(delays).toHaveLength(1);
      expect(delays[0]).toBeGreaterThanOrEqual(low);
      expect(delays[0]).toBeLessThanOrEqual(high);
      expect((await attempts()).count).toBe(1);
    }
  });

  it('fails at once when Retry-After is longer than maxRetryDelayMs', async () => {
    const { llm, attempts } = scripted('s429-ra120,ok');
    const { error } = await collect(llm.stream({ messages: USER }));
    expect((error as HttpError).status).toBe(429);
    expect((await attempts()).count).toBe(1);
  });

  it('retries a connection reset before any response', async () => {
    const { llm, attempts } = scripted('reset,ok');
    expect((await llm.complete({ messages: USER })).content).toBe('Hello world');
    expect((await attempts()).count).toBe(2);
  });

  it('does not retry once the first byte arrived: a stream cut after one byte is a network error', async () => {
    const { llm, attempts } = scripted('cut,ok');
    const { error } = await collect(llm.stream({ messages: USER }));
    expect((error as PagentError).code).toBe('network');
    expect((error as PagentError).message).toContain('after 1 bytes');
    expect((await attempts()).count).toBe(1);
  });

  it('reports a stream that ended cleanly without finish_reason or [DONE] as truncated, after its deltas', async () => {
    const { llm, attempts } = scripted('end,ok');
    const { events, error } = await collect(llm.stream({ messages: USER }));
    expect(textOf(events)).toBe('Hel');
    expect((error as PagentError).code).toBe('truncated');
    expect((await attempts()).count).toBe(1);
  });

  it('does not retry a provider error in the stream', async () => {
    const { llm, attempts } = scripted('echoerr,ok');
    const { error } = await collect(llm.stream({ messages: USER }));
    expect((error as PagentError).code).toBe('provider');
    expect((await attempts()).count).toBe(1);
  });
});

describe('LLM failures', () => {
  it('explains a network failure on a server that answers otherwise: the browser withheld the response (CORS)', async () => {
    const { llm, attempts } = scripted('reset', { retries: 1 });
    const { error } = await collect(llm.stream({ messages: USER }));
    const e = error as PagentError;
    expect(e.code).toBe('network');
    expect(e.where).toBe('llm');
    expect(e.message).toContain('though the server answers');
    expect(e.message).toContain('CORS');
    expect(e.message).toContain(`${api}/llm/script/`);
    expect(e.message).not.toBe('Failed to fetch');
    expect((await attempts()).count).toBe(2);
  });

  it('reports a server that does not allow CORS as a network error that names CORS and what to send', async () => {
    const { llm } = scripted('nocors', { retries: 0, apiKey: KEY });
    const { error } = await collect(llm.stream({ messages: USER }));
    expect((error as PagentError).code).toBe('network');
    expect((error as PagentError).message).toMatch(/\(CORS\)\. The server must allow this page's origin \(Access-Control-Allow-Origin\)/);
    expectNoKey(error);
  });

  it('reports an unreachable server as a network error that says nothing answered, without a CORS paragraph', async () => {
    const llm = new LLM('m', { baseURL: 'http://127.0.0.1:9/v1', retries: 0 });
    const { error } = await collect(llm.stream({ messages: USER }));
    expect((error as PagentError).code).toBe('network');
    expect((error as PagentError).message).toMatch(/^POST http:\/\/127\.0\.0\.1:9\/v1\/chat\/completions failed \(.*\): nothing answered\./);
    expect((error as PagentError).message).not.toContain('CORS');
  });

  it('keeps the key out of an HTTP error whose body echoes the Authorization header', async () => {
    const { llm } = scripted('echo401', { apiKey: KEY });
    const { error } = await collect(llm.stream({ messages: USER }));
    expect((error as HttpError).status).toBe(401);
    expect((error as HttpError).message).toContain('Incorrect API key provided: Bearer [redacted]');
    expect((error as HttpError).message).toContain('Check the API key');
    expectNoKey(error);
  });

  it('keeps the key out of a provider error in the stream that echoes it', async () => {
    const { llm } = scripted('echoerr', { apiKey: KEY });
    const { events, error } = await collect(llm.stream({ messages: USER }));
    expect(textOf(events)).toBe('Hi');
    expect((error as PagentError).message).toContain('upstream rejected Bearer [redacted]');
    expectNoKey(error);
  });

  it('keeps a secret custom header value out of error messages too', async () => {
    const { llm } = scripted('echo401', { headers: { Authorization: `Bearer ${KEY}` } });
    const { error } = await collect(llm.stream({ messages: USER }));
    expectNoKey(error);
  });

  it('gives the provider message of a JSON error body (Mistral 422) and the text of an HTML page', async () => {
    const { llm } = scripted('mistral422');
    const { error } = await collect(llm.stream({ messages: USER }));
    expect((error as HttpError).status).toBe(422);
    expect((error as HttpError).message).toContain('Extra inputs are not permitted');
    const html = scripted('html502', { retries: 0 });
    const r = await collect(html.llm.stream({ messages: USER }));
    expect((r.error as HttpError).status).toBe(502);
    expect((r.error as HttpError).message).toContain('502 Bad Gateway');
  });

  it("reports nginx's HTML 502 page by its status, without the markup", async () => {
    const { llm, attempts } = scripted('nginx502', { retries: 0 });
    const { error } = await collect(llm.stream({ messages: USER }));
    expect(error).toBeInstanceOf(HttpError);
    const e = error as HttpError;
    expect([e.code, e.status, e.where]).toEqual(['http', 502, 'llm']);
    expect(e.message).toMatch(new RegExp(`^HTTP 502 from POST ${api}/llm/script/\\w+/nginx502/v1/chat/completions: 502 Bad Gateway\\.$`));
    expect(e.message).not.toMatch(/<html|<center|<!--/i);
    expect(e.message.length).toBeLessThan(200);
    expect((await attempts()).count).toBe(1);
  });

  it("summarises FastAPI's 422 validation error", async () => {
    const { llm } = scripted('fastapi422');
    const { error } = await collect(llm.stream({ messages: USER }));
    expect(error).toBeInstanceOf(HttpError);
    const e = error as HttpError;
    expect([e.code, e.status]).toEqual(['http', 422]);
    expect(e.message).toContain(
      ': Invalid request: body.messages[0].content: Field required; body.temperature: Input should be a valid number; ' +
        'body.stream_options: Extra inputs are not permitted; and 1 more.',
    );
    expect(e.message).not.toContain('"loc"');
  });

  it('times out when no response comes within timeoutMs, without retrying', async () => {
    const { llm, attempts } = scripted('hang,ok', { timeoutMs: 150 });
    const { error } = await collect(llm.stream({ messages: USER }));
    expect((error as PagentError).code).toBe('timeout');
    expect((error as PagentError).message).toContain('no response within 150 ms');
    expect((await attempts()).count).toBe(1);
  });

  it('times out when the stream stalls after its first chunk', async () => {
    const { llm } = scripted('stall', { timeoutMs: 500 });
    const { events, error } = await collect(llm.stream({ messages: USER }));
    expect(textOf(events)).toBe('Hel');
    expect((error as PagentError).code).toBe('timeout');
    expect((error as PagentError).message).toContain('stalled');
  });

  it("does not count the consumer's own time between reads as a stall", async () => {
    const { llm } = scripted('ok', { timeoutMs: 1000 });
    const texts: string[] = [];
    for await (const e of llm.stream({ messages: USER })) {
      if (e.type !== 'text') continue;
      texts.push(e.text);
      await new Promise((r) => setTimeout(r, 1100));
    }
    expect(texts.join('')).toBe('Hello world');
  });

  it('turns the limit off with timeoutMs 0', async () => {
    const { llm } = scripted('ok', { timeoutMs: 0 });
    expect((await llm.complete({ messages: USER })).content).toBe('Hello world');
  });

  it('treats timeoutMs as an idle limit: a slow but steady stream completes', async () => {
    const { llm } = scripted('slow', { timeoutMs: 1000 });
    expect((await llm.complete({ messages: USER })).content).toBe('Hello world');
  });
});

describe('LLM against a server that never ends what it sends', () => {
  const LIMIT = 64 * 1024;
  const SERVER_CAP = 64 * 1024 * 1024; // test/server/llm.ts stops an endless body there on its own

  /** Waits until the server saw the client go; returns what it had sent by then. */
  async function serverSawAbort(attempts: ReturnType<typeof scripted>['attempts']): Promise<number> {
    await expect.poll(async () => (await attempts()).endless?.clientGone, { timeout: 5_000, interval: 20 }).toBe(true);
    return (await attempts()).endless!.sent;
  }

  for (const [step, shape] of [
    ['endless', 'one data: line that never ends'],
    ['endlesslines', 'data: lines that never end the message'],
  ] as const) {
    it(`fails with a provider error naming maxEventBytes and aborts the request, not retried: ${shape}`, async () => {
      const { llm, attempts } = scripted(step, { maxEventBytes: LIMIT, retries: 2 });
      const { events, error } = await collect(llm.stream({ messages: USER }));
      expect(textOf(events)).toBe('Hel');
      expect(events.some((e) => e.type === 'step')).toBe(false);
      expect(error).toBeInstanceOf(PagentError);
      expect((error as PagentError).code).toBe('provider');
      expect((error as PagentError).where).toBe('llm');
      expect((error as PagentError).message).toContain(`over ${LIMIT} bytes (maxEventBytes)`);
      expect(await serverSawAbort(attempts)).toBeLessThan(SERVER_CAP);
      expect((await attempts()).count).toBe(1);
    });
  }

  it('fails with a provider error and aborts the request when a JSON response never ends', async () => {
    const { llm, attempts } = scripted('endlessjson', { maxEventBytes: LIMIT });
    const { error } = await collect(llm.stream({ messages: USER }));
    expect((error as PagentError).code).toBe('provider');
    expect((error as PagentError).message).toContain(`JSON response of POST ${api}/llm/script/`);
    expect((error as PagentError).message).toContain(`over ${LIMIT} bytes (maxEventBytes)`);
    expect(await serverSawAbort(attempts)).toBeLessThan(SERVER_CAP);
  });

  it('reads an error body that never ends only up to maxEventBytes and still reports the status', async () => {
    const { llm, attempts } = scripted('endless500', { maxEventBytes: LIMIT, retries: 0 });
    const { error } = await collect(llm.stream({ messages: USER }));
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(500);
    expect((error as HttpError).message).toContain(`HTTP 500 from POST ${api}/llm/script/`);
    expect(await serverSawAbort(attempts)).toBeLessThan(SERVER_CAP);
  });
});

describe('LLM with an injected fetch', () => {
  it('reports a 200 JSON error object as a provider error', async () => {
    const fetchImpl = (async () =>
      new Response(JSON.stringify({ error: { message: 'model overloaded', code: 'overloaded' } }), {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
      })) as typeof fetch;
    const llm = new LLM('m', { baseURL: 'https://example.test/v1', fetch: fetchImpl });
    const { error } = await collect(llm.stream({ messages: USER }));
    expect((error as PagentError).code).toBe('provider');
    expect((error as PagentError).message).toContain('model overloaded (code overloaded)');
  });

  it('keeps the key out of a network error whose cause quotes the header value (as undici does)', async () => {
    let calls = 0;
    const fetchImpl = (async () => {
      calls++;
      throw new TypeError(`Headers.append: "Bearer ${KEY}" is an invalid header value.`);
    }) as typeof fetch;
    const llm = new LLM('m', { baseURL: 'https://example.test/v1', apiKey: KEY, fetch: fetchImpl, retryBaseMs: 1 });
    const { error } = await collect(llm.stream({ messages: USER }));
    expect((error as PagentError).code).toBe('network');
    expect((error as PagentError).message).toContain('Bearer [redacted]');
    expectNoKey(error);
    expect(calls).toBe(3);
  });

  it('reads a JSON completion sent with a wrong Content-Type, and says when a 200 body is not an event stream', async () => {
    const completion = { choices: [{ index: 0, message: { role: 'assistant', content: 'plain' }, finish_reason: 'stop' }] };
    const bodies = [JSON.stringify(completion), ': processing\n\n', '<html><body>Welcome to nginx</body></html>'];
    const fetchImpl = (async () => new Response(bodies.shift(), { status: 200, headers: { 'Content-Type': 'text/plain' } })) as typeof fetch;
    const llm = new LLM('m', { baseURL: 'https://example.test/v1', fetch: fetchImpl });
    expect((await llm.complete({ messages: USER })).content).toBe('plain');
    const comments = await collect(llm.stream({ messages: USER }));
    expect((comments.error as PagentError).code).toBe('truncated');
    const html = await collect(llm.stream({ messages: USER }));
    expect((html.error as PagentError).code).toBe('truncated');
    expect((html.error as PagentError).message).toContain('not an event stream: <html><body>Welcome to nginx');
  });

  it('reports an empty 200 body as truncated', async () => {
    const fetchImpl = (async () => new Response('', { status: 200, headers: { 'Content-Type': 'text/event-stream' } })) as typeof fetch;
    const llm = new LLM('m', { baseURL: 'https://example.test/v1', fetch: fetchImpl });
    const { error } = await collect(llm.stream({ messages: USER }));
    expect((error as PagentError).code).toBe('truncated');
  });
});

describe('LLM cancellation', () => {
  it('throws the signal reason without a request when already aborted', async () => {
    const { llm, attempts } = scripted('ok');
    const controller = new AbortController();
    controller.abort(new Error('nope'));
    const { error } = await collect(llm.stream({ messages: USER, signal: controller.signal }));
    expect((error as Error).message).toBe('nope');
    expect((await attempts()).count).toBe(0);
  });

  it('throws the signal reason when aborted mid-stream', async () => {
    const { llm } = scripted('stall');
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
    expect(textOf(events)).toBe('Hel');
  });

  it('stops quietly when the consumer breaks out of the loop', async () => {
    const { llm } = scripted('stall', { timeoutMs: 60_000 });
    const seen: string[] = [];
    for await (const e of llm.stream({ messages: USER })) {
      if (e.type === 'text') seen.push(e.text);
      break;
    }
    expect(seen).toEqual(['Hel']);
  });
});

// issue 10, item 13: a redirect must not re-send the conversation to another origin.
describe('LLM and redirects', () => {
  const attemptsOf = async (key: string) => (await (await fetch(`${api}/llm/attempts/${key}`)).json()) as { count: number };

  it('refuses a redirect to another origin: the conversation never reaches it, and it is not retried', async () => {
    const key = testKey();
    const llm = new LLM('scripted-model', { baseURL: `${api}/llm/script/${key}/xredirect/v1`, apiKey: KEY, retryBaseMs: 1 });
    const { events, error } = await collect(llm.stream({ messages: [{ role: 'user', content: 'my private question' }] }));
    expect(events).toEqual([]);
    expect(error).toBeInstanceOf(PagentError);
    expect((error as PagentError).code).toBe('redirect');
    expect((error as PagentError).message).toContain('redirect');
    expect((error as PagentError).message).toContain(`${api}/llm/script/${key}/xredirect/v1/chat/completions`);
    expectNoKey(error);
    expect((await attemptsOf(key)).count).toBe(1);
    expect((await attemptsOf(`${key}-target`)).count).toBe(0);
  });

  it('refuses a same-origin redirect in the browser too, where the target cannot be seen', async () => {
    const key = testKey();
    const llm = new LLM('scripted-model', { baseURL: `${api}/llm/script/${key}/sredirect/v1`, retryBaseMs: 1 });
    const { error } = await collect(llm.stream({ messages: USER }));
    expect((error as PagentError).code).toBe('redirect');
    expect((await attemptsOf(`${key}-target`)).count).toBe(0);
  });
});
