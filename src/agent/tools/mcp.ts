/**
 * Tools of a remote MCP server over Streamable HTTP (MCP 2025-06-18, also 2025-03-26 servers): a small
 * client of our own — `initialize`, `tools/list`, `tools/call`, the `Mcp-Session-Id` header, JSON or
 * SSE responses, `notifications/tools/list_changed` on the server's GET stream, and
 * `notifications/cancelled` when a call is aborted — whose tools are our `Tool`s.
 */
import { createParser } from 'eventsource-parser';
import { HttpError, PagentError, errorMessage } from '../../errors.js';
import { httpFailureMessage } from '../../wire/request-failure.js';
import { createRedactor, secretHeaderValues } from '../redact.js';
import { tool, type Tool } from './tools.js';

/** The protocol version asked for (a server may answer with an older one it supports). */
export const MCP_PROTOCOL_VERSION = '2025-06-18';

/** Options of {@link mcpTools} and {@link createMcpClient}. */
export interface McpOptions {
  /**
   * Headers sent with every request (e.g. `Authorization`). They go only to this server's URL: a redirect
   * is refused (`PagentError{code: "redirect"}`) rather than followed elsewhere. Their values (but for
   * `Accept`, `Content-Type` and the like) are redacted from every result and error the client gives.
   */
  headers?: Record<string, string>;
  /** The fetch to use. @defaultValue `globalThis.fetch` */
  fetch?: typeof fetch;
  /**
   * Milliseconds a request may take before it is abandoned (a `tools/call` is then cancelled on the
   * server with `notifications/cancelled`). 0: no limit.
   * @defaultValue 60000
   */
  timeoutMs?: number;
  /**
   * Called with the new tool list after the server announced `notifications/tools/list_changed` (the
   * client keeps a GET stream open for it when the server offers one). Build the next `Agent` with it.
   */
  onToolsChanged?: (tools: Tool<never>[]) => void;
  /** Prefix for the tool names the model sees (e.g. `"github_"`), to keep several servers apart. */
  namePrefix?: string;
  /** Marks every tool of this server `needsApproval` (the run pauses for `approve()` before each call). */
  needsApproval?: boolean;
}

/** A tool as an MCP server lists it. */
export interface McpToolInfo {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}

/** A connected MCP server. */
export interface McpClient {
  /** The server's `serverInfo` and negotiated protocol version. */
  readonly server: { name?: string; version?: string; protocolVersion: string };
  /** The server's tools as our `Tool`s (`tools/list`, every page). */
  tools(): Promise<Tool<never>[]>;
  /** `tools/call`: the result as text; `isError` results and JSON-RPC errors reject. */
  callTool(name: string, args: unknown, options?: { signal?: AbortSignal }): Promise<string>;
  /** Stops listening for notifications and ends the session (`DELETE`). */
  close(): Promise<void>;
}

type JsonRpcMessage = { jsonrpc: '2.0'; id?: number | string; method?: string; params?: Record<string, unknown>; result?: unknown; error?: { code: number; message: string; data?: unknown } };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads JSON-RPC messages from an SSE body, calling `onMessage` for each (comments and pings skipped). */
async function readSse(body: ReadableStream<Uint8Array>, onMessage: (message: JsonRpcMessage) => boolean | void, signal: AbortSignal): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let done = false;
  const parser = createParser({
    onEvent(event) {
      if (done || (event.event !== undefined && event.event !== 'message')) return;
      let message: unknown;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (isObject(message) && onMessage(message as JsonRpcMessage) === true) done = true;
    },
  });
  const onAbort = (): void => void reader.cancel().catch(() => undefined);
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    while (!done) {
      const { value, done: end } = await reader.read();
      if (end) break;
      parser.feed(decoder.decode(value, { stream: true }));
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    if (done) void reader.cancel().catch(() => undefined);
  }
}

/** The text a model gets for a `tools/call` result's content. */
function resultText(result: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const item of Array.isArray(result['content']) ? result['content'] : []) {
    if (!isObject(item)) continue;
    const type = item['type'];
    if (type === 'text') parts.push(String(item['text'] ?? ''));
    else if (type === 'image' || type === 'audio') parts.push(`[${type}: ${String(item['mimeType'] ?? 'unknown type')}, ${Math.floor((String(item['data'] ?? '').length * 3) / 4)} bytes]`);
    else if (type === 'resource' && isObject(item['resource'])) {
      const r = item['resource'];
      parts.push(typeof r['text'] === 'string' ? r['text'] : `[resource ${String(r['uri'] ?? '')}]`);
    } else if (type === 'resource_link') parts.push(`[resource ${String(item['uri'] ?? '')}${item['name'] ? ` (${String(item['name'])})` : ''}]`);
  }
  if (parts.length === 0 && result['structuredContent'] !== undefined) return JSON.stringify(result['structuredContent']);
  return parts.join('\n');
}

/**
 * Connects to an MCP server over Streamable HTTP (initialize, then `notifications/initialized`).
 *
 * @throws {PagentError} `code: "http"` (an {@link HttpError} with the status, e.g. 401), `"network"`
 *   (unreachable, or refused by CORS), `"redirect"` (the server redirected the request: refused, see
 *   {@link McpOptions.headers}), `"timeout"`, or `"mcp"` (a JSON-RPC error, a malformed answer).
 */
export async function createMcpClient(url: string, options: McpOptions = {}): Promise<McpClient> {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const timeoutMs = options.timeoutMs ?? 60_000;
  const root = new URL(url, (globalThis as { location?: { href: string } }).location?.href);
  const target = root.href;
  const { redact } = createRedactor(secretHeaderValues(options.headers));
  let sessionId: string | undefined;
  let protocolVersion = MCP_PROTOCOL_VERSION;
  let nextId = 1;
  const closing = new AbortController();

  const headers = (): Record<string, string> => {
    const h: Record<string, string> = { ...options.headers, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
    if (sessionId) h['Mcp-Session-Id'] = sessionId;
    if (initialized) h['MCP-Protocol-Version'] = protocolVersion;
    return h;
  };
  let initialized = false;

  function failure(message: string, code: string, cause?: unknown): PagentError {
    return new PagentError(message, { code, where: `mcp:${target}`, cause });
  }

  /** `err` without the headers' secrets (a new error when they were in it: its stack repeats the message). */
  function redactError(err: unknown): unknown {
    if (!(err instanceof Error) || redact(err.message) === err.message) return err;
    const message = redact(err.message);
    if (err instanceof HttpError) return new HttpError(message, err.status, err.where);
    if (err instanceof PagentError) return new PagentError(message, { code: err.code, status: err.status, where: err.where });
    return failure(message, 'mcp');
  }

  /**
   * One request to the server, without letting `fetch` follow a redirect: one to another origin would get
   * the body and the headers (a token). A redirect is refused as an `LLM` refuses it (../llm/llm-redirect.ts,
   * loaded on the first one): always in a browser, which hides where it leads; elsewhere it is followed
   * only on the same origin.
   */
  async function send(init: RequestInit & { method: string }): Promise<Response> {
    let next = target;
    for (let hop = 0; ; hop++) {
      const response = await doFetch(next, { ...init, redirect: 'manual' });
      const { status } = response;
      if (response.type !== 'opaqueredirect' && (status < 300 || status > 399 || status === 304)) return response;
      const { redirectTarget } = await import('../llm/llm-redirect.js');
      next = redirectTarget(response, next, hop, {
        url: target,
        root,
        redact,
        PagentError,
        method: init.method,
        where: `mcp:${target}`,
        carries: 'the request and its headers',
        advice: "Connect to the server's final URL.",
      });
    }
  }

  async function post(body: JsonRpcMessage, signal: AbortSignal, method: string): Promise<Response> {
    let response: Response;
    try {
      response = await send({ method: 'POST', headers: headers(), body: JSON.stringify(body), signal });
    } catch (err) {
      if (signal.aborted) throw signal.reason;
      if (err instanceof PagentError) throw err;
      throw failure(`MCP ${method} to ${target} failed: the server is unreachable or refused the request (check the URL, that it is running, and that it allows this origin with CORS) — ${errorMessage(err)}`, 'network', err);
    }
    if (!response.ok) {
      const detail = await httpFailureMessage(response).catch(() => 'HTTP');
      throw new HttpError(`MCP ${method} to ${target} failed: HTTP ${response.status}${detail.startsWith('HTTP ') ? '' : ` — ${detail}`}`, response.status, `mcp:${target}`);
    }
    return response;
  }

  function withTimeout(signal: AbortSignal | undefined): { signal: AbortSignal; timedOut: () => boolean; done: () => void } {
    const controller = new AbortController();
    let timedOut = false;
    const abort = (reason: unknown): void => controller.abort(reason);
    const onOuter = (): void => abort(signal?.reason);
    signal?.addEventListener('abort', onOuter, { once: true });
    if (signal?.aborted) abort(signal.reason);
    const timer = timeoutMs > 0 ? setTimeout(() => ((timedOut = true), abort(new DOMException('timed out', 'TimeoutError'))), timeoutMs) : undefined;
    return {
      signal: controller.signal,
      timedOut: () => timedOut,
      done: () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onOuter);
      },
    };
  }

  /**
   * One JSON-RPC request; resolves with its result. Aborting or timing out sends `notifications/cancelled`.
   * Its errors carry none of the headers' secrets (a server may echo its token).
   */
  function request(method: string, params: Record<string, unknown>, signal?: AbortSignal): Promise<Record<string, unknown>> {
    return exchange(method, params, signal).catch((err: unknown) => {
      throw redactError(err);
    });
  }

  async function exchange(method: string, params: Record<string, unknown>, signal?: AbortSignal): Promise<Record<string, unknown>> {
    const id = nextId++;
    const scope = withTimeout(signal);
    let reply: JsonRpcMessage | undefined;
    try {
      const response = await post({ jsonrpc: '2.0', id, method, params }, scope.signal, method);
      if (method === 'initialize') sessionId = response.headers.get('Mcp-Session-Id') ?? undefined;
      const type = (response.headers.get('Content-Type') ?? '').toLowerCase();
      if (type.includes('text/event-stream') && response.body) {
        await readSse(response.body, (message) => {
          if (message.id === id && (message.result !== undefined || message.error !== undefined)) {
            reply = message;
            return true;
          }
          handleServerMessage(message);
          return false;
        }, scope.signal);
      } else {
        const parsed: unknown = await response.json();
        const list = Array.isArray(parsed) ? parsed : [parsed];
        reply = list.find((m): m is JsonRpcMessage => isObject(m) && m['id'] === id);
      }
      if (scope.signal.aborted) throw scope.signal.reason;
    } catch (err) {
      if (scope.signal.aborted) {
        if (method !== 'initialize') void notify('notifications/cancelled', { requestId: id, reason: scope.timedOut() ? `timed out after ${timeoutMs} ms` : 'aborted by the client' });
        if (scope.timedOut()) throw failure(`MCP ${method} to ${target} timed out after ${timeoutMs} ms`, 'timeout', err);
        throw signal?.reason ?? err;
      }
      throw err;
    } finally {
      scope.done();
    }
    if (!reply) throw failure(`MCP ${method} to ${target} failed: the response held no answer to request ${id}`, 'mcp');
    if (reply.error) throw failure(`MCP ${method} failed: ${reply.error.message} (JSON-RPC error ${reply.error.code})`, 'mcp');
    if (!isObject(reply.result)) throw failure(`MCP ${method} failed: the result is not an object`, 'mcp');
    return reply.result;
  }

  async function notify(method: string, params?: Record<string, unknown>): Promise<void> {
    const body: JsonRpcMessage = { jsonrpc: '2.0', method };
    if (params) body.params = params;
    const response = await send({ method: 'POST', headers: headers(), body: JSON.stringify(body) }).catch(() => undefined);
    await response?.body?.cancel().catch(() => undefined);
  }

  let changed: Promise<void> = Promise.resolve();
  function handleServerMessage(message: JsonRpcMessage): void {
    if (message.method === 'notifications/tools/list_changed' && options.onToolsChanged) {
      const onChange = options.onToolsChanged;
      changed = changed.then(() => client.tools().then(onChange, () => undefined));
    } else if (message.method === 'ping' && message.id !== undefined) {
      void send({ method: 'POST', headers: headers(), body: JSON.stringify({ jsonrpc: '2.0', id: message.id, result: {} }) }).then((r) => r.body?.cancel(), () => undefined);
    }
  }

  /**
   * Opens the server's own stream (GET) for notifications, resolving once it is open (its headers came),
   * so a change right after connecting is not missed; a 405 means the server has none.
   */
  async function listen(): Promise<void> {
    let response: Response;
    try {
      const h = headers();
      delete h['Content-Type'];
      h['Accept'] = 'text/event-stream';
      response = await send({ method: 'GET', headers: h, signal: closing.signal });
    } catch {
      return; // no notifications: the tools still work
    }
    if (!response.ok || !response.body) return void response.body?.cancel().catch(() => undefined);
    void readSse(response.body, (m) => void handleServerMessage(m), closing.signal).catch(() => undefined);
  }

  const init = await request('initialize', {
    protocolVersion: MCP_PROTOCOL_VERSION,
    capabilities: {},
    clientInfo: { name: 'pagent-web', version: '0.1.0' },
  });
  if (typeof init['protocolVersion'] === 'string') protocolVersion = init['protocolVersion'];
  initialized = true;
  await notify('notifications/initialized');
  const serverInfo = isObject(init['serverInfo']) ? init['serverInfo'] : {};
  const capabilities = isObject(init['capabilities']) ? init['capabilities'] : {};
  if (options.onToolsChanged && isObject(capabilities['tools']) && capabilities['tools']['listChanged'] === true) await listen();

  const client: McpClient = {
    server: {
      ...(typeof serverInfo['name'] === 'string' ? { name: serverInfo['name'] } : {}),
      ...(typeof serverInfo['version'] === 'string' ? { version: serverInfo['version'] } : {}),
      protocolVersion,
    },

    async tools() {
      const infos: McpToolInfo[] = [];
      let cursor: string | undefined;
      do {
        const page = await request('tools/list', cursor === undefined ? {} : { cursor });
        for (const t of Array.isArray(page['tools']) ? page['tools'] : []) {
          if (isObject(t) && typeof t['name'] === 'string') {
            infos.push({ name: t['name'], description: typeof t['description'] === 'string' ? redact(t['description']) : '', inputSchema: isObject(t['inputSchema']) ? t['inputSchema'] : { type: 'object' } });
          }
        }
        cursor = typeof page['nextCursor'] === 'string' && page['nextCursor'] !== '' ? page['nextCursor'] : undefined;
      } while (cursor !== undefined);
      return infos.map((info) =>
        tool<Record<string, unknown>>({
          name: `${options.namePrefix ?? ''}${info.name}`,
          description: info.description ?? '',
          parameters: info.inputSchema,
          ...(options.needsApproval ? { needsApproval: true } : {}),
          execute: (args, ctx) => client.callTool(info.name, args, { signal: ctx.signal }),
        }) as Tool<never>,
      );
    },

    async callTool(name, args, callOptions = {}) {
      const result = await request('tools/call', { name, arguments: args ?? {} }, callOptions.signal);
      const text = redact(resultText(result));
      if (result['isError'] === true) throw new Error(text || 'the tool reported an error');
      return text;
    },

    async close() {
      closing.abort();
      if (!sessionId) return;
      const h = headers();
      delete h['Content-Type'];
      const response = await send({ method: 'DELETE', headers: h }).catch(() => undefined);
      await response?.body?.cancel().catch(() => undefined);
      sessionId = undefined;
    },
  };
  return client;
}

/**
 * The tools of a remote MCP server (Streamable HTTP), ready for an `Agent`'s `tools`. Arguments are
 * checked against each tool's `inputSchema` like any tool's; results become text (text parts joined,
 * images and resources summarised); a result with `isError` or a JSON-RPC error is a failed
 * `ToolResult`; aborting the run cancels the call on the server (`notifications/cancelled`).
 * The server must allow this page's origin with CORS (see docs/guides/runner.md, "CORS for MCP servers").
 *
 * @example
 * const tools = await mcpTools('https://mcp.example.com/mcp', { headers: { Authorization: `Bearer ${token}` } });
 * const agent = new Agent({ llm, tools: [...DEFAULT_TOOLS, ...tools] });
 *
 * @throws {PagentError} naming the HTTP status (e.g. 401) or the network failure, as {@link createMcpClient}.
 */
export async function mcpTools(url: string, options: McpOptions = {}): Promise<Tool<never>[]> {
  const client = await createMcpClient(url, options);
  return client.tools();
}
