import { describe, expect, it } from 'vitest';
import { LLM } from '../../../../src/agent/llm/llm.js';
import { PagentError } from '../../../../src/errors.js';

const SSE =
  'data: {"choices":[{"index":0,"delta":{"role":"assistant","content":"Hi"},"finish_reason":null}]}\n\n' +
  'data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n';

/** A fetch that answers each URL from `routes` and records the calls (Node's fetch shows redirects as they are). */
function fakeFetch(routes: Record<string, () => Response>) {
  const calls: Array<{ url: string; redirect: RequestRedirect | undefined; body: unknown }> = [];
  const fetchImpl = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    calls.push({ url, redirect: init?.redirect, body: init?.body });
    const route = routes[url];
    if (!route) throw new TypeError(`no route ${url}`);
    return route();
  }) as typeof fetch;
  return { fetchImpl, calls };
}

const redirect = (status: number, location: string) => () => new Response(null, { status, headers: { Location: location } });
const ok = () => () => new Response(SSE, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });

// issue 10, item 13 (where the redirect target is visible, as in Node)
describe('LLM redirects where the target is visible', () => {
  it('refuses a 307 to another origin without sending anything there', async () => {
    const { fetchImpl, calls } = fakeFetch({
      'https://api.example.com/v1/chat/completions': redirect(307, 'https://collector.example.net/v1/chat/completions'),
      'https://collector.example.net/v1/chat/completions': ok(),
    });
    const llm = new LLM('m', { baseURL: 'https://api.example.com/v1', fetch: fetchImpl, retryBaseMs: 1 });
    const error = await llm.complete({ messages: [{ role: 'user', content: 'secret plans' }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PagentError);
    expect((error as PagentError).code).toBe('redirect');
    expect((error as PagentError).status).toBe(307);
    expect((error as PagentError).message).toContain('https://collector.example.net');
    expect(calls.map((c) => c.url)).toEqual(['https://api.example.com/v1/chat/completions']);
    expect(calls[0]!.redirect).toBe('manual');
  });

  it('follows a 307 on the same origin with the same body', async () => {
    const { fetchImpl, calls } = fakeFetch({
      'https://api.example.com/v1/chat/completions': redirect(307, '/v2/chat/completions'),
      'https://api.example.com/v2/chat/completions': ok(),
    });
    const llm = new LLM('m', { baseURL: 'https://api.example.com/v1', fetch: fetchImpl });
    expect((await llm.complete({ messages: [{ role: 'user', content: 'Hi' }] })).content).toBe('Hi');
    expect(calls.map((c) => c.url)).toEqual(['https://api.example.com/v1/chat/completions', 'https://api.example.com/v2/chat/completions']);
    expect(calls[1]!.body).toBe(calls[0]!.body);
  });

  it('refuses a 302 (it would turn the POST into a GET) and a redirect loop', async () => {
    const found = fakeFetch({ 'https://api.example.com/v1/chat/completions': redirect(302, '/login') });
    const e302 = await new LLM('m', { baseURL: 'https://api.example.com/v1', fetch: found.fetchImpl }).complete({ messages: [] }).catch((e: unknown) => e);
    expect((e302 as PagentError).code).toBe('redirect');
    expect(found.calls).toHaveLength(1);
    const loop = fakeFetch({ 'https://api.example.com/v1/chat/completions': redirect(308, '/v1/chat/completions') });
    const eLoop = await new LLM('m', { baseURL: 'https://api.example.com/v1', fetch: loop.fetchImpl }).complete({ messages: [] }).catch((e: unknown) => e);
    expect((eLoop as PagentError).message).toContain('too many redirects');
    expect(loop.calls).toHaveLength(6);
  });
});
