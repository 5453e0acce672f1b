// The MCP client and redirects where their target is visible (as in Node; a browser hides it, see
// test/browser/agent/mcp.test.ts).
import { describe, expect, it } from 'vitest';
import { createMcpClient } from '../../../../src/agent/tools/mcp.js';
import { PagentError } from '../../../../src/errors.js';

const TOKEN = 'mcp-Key-7f3a9Q2x';

/** A fetch that answers each URL from `routes` and records every call with its headers. */
function fakeFetch(routes: Record<string, (body: { id?: number; method?: string } | undefined) => Response>) {
  const calls: Array<{ url: string; method: string | undefined; redirect: RequestRedirect | undefined; apiKey: string | null }> = [];
  const fetchImpl = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    calls.push({ url, method: init?.method, redirect: init?.redirect, apiKey: new Headers(init?.headers).get('x-api-key') });
    const route = routes[url];
    if (!route) throw new TypeError(`no route ${url}`);
    return route(typeof init?.body === 'string' ? JSON.parse(init.body) : undefined);
  }) as typeof fetch;
  return { fetchImpl, calls };
}

const redirect = (status: number, location: string) => () => new Response(null, { status, headers: { Location: location } });
const server = (body: { id?: number; method?: string } | undefined) =>
  body?.id === undefined
    ? new Response(null, { status: 202 })
    : Response.json({ jsonrpc: '2.0', id: body.id, result: body.method === 'initialize' ? { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 'moved' } } : { tools: [] } });

// issue 22, item 8
describe('MCP redirects where the target is visible', () => {
  it('refuses a redirect to another origin: nothing is sent there', async () => {
    const { fetchImpl, calls } = fakeFetch({
      'https://mcp.example.com/mcp': redirect(307, 'https://collector.example.net/mcp'),
      'https://collector.example.net/mcp': server,
    });
    const error = await createMcpClient('https://mcp.example.com/mcp', { fetch: fetchImpl, headers: { 'X-Api-Key': TOKEN } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PagentError);
    expect(error).toMatchObject({ code: 'redirect', where: 'mcp:https://mcp.example.com/mcp', status: 307 });
    expect((error as Error).message).toBe(
      'POST https://mcp.example.com/mcp answered with a redirect (HTTP 307) that was refused: it leads to another origin (https://collector.example.net), which would receive the request and its headers. Connect to the server\'s final URL.',
    );
    expect(calls.map((c) => [c.url, c.redirect])).toEqual([['https://mcp.example.com/mcp', 'manual']]);
  });

  it('follows a 307/308 on the same origin for every request, with the headers', async () => {
    const { fetchImpl, calls } = fakeFetch({
      'https://mcp.example.com/old': redirect(308, '/mcp'),
      'https://mcp.example.com/mcp': server,
    });
    const client = await createMcpClient('https://mcp.example.com/old', { fetch: fetchImpl, headers: { 'X-Api-Key': TOKEN } });
    expect(client.server.name).toBe('moved');
    expect(await client.tools()).toEqual([]);
    expect(calls.every((c) => c.redirect === 'manual' && c.apiKey === TOKEN)).toBe(true);
    expect(calls.map((c) => c.url)).toEqual([
      'https://mcp.example.com/old', 'https://mcp.example.com/mcp', // initialize
      'https://mcp.example.com/old', 'https://mcp.example.com/mcp', // notifications/initialized
      'https://mcp.example.com/old', 'https://mcp.example.com/mcp', // tools/list
    ]);
  });

  it('refuses a 302 of a POST (it would become a GET)', async () => {
    const { fetchImpl } = fakeFetch({ 'https://mcp.example.com/mcp': redirect(302, '/login') });
    const error = await createMcpClient('https://mcp.example.com/mcp', { fetch: fetchImpl }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'redirect' });
    expect((error as Error).message).toContain('HTTP 302 would turn the POST into a GET');
  });
});
