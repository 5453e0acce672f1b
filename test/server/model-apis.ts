import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CORS_HEADERS, readBody, sleep, type RouteHandler } from './index.js';

/**
 * Scripted model servers of the three model APIs, under /apis/*:
 *   POST /apis/<key>/<steps>/v1/chat/completions   Chat Completions
 *   POST /apis/<key>/<steps>/v1/responses          OpenAI's Responses API
 *   POST /apis/<key>/<steps>/v1/messages           Anthropic's Messages API
 *   GET  /apis/attempts/<key>                      {count, requests: [{headers, body}]} seen under that key
 * Attempt n (counted per key) plays steps[n] (the last one repeats); steps are comma-separated:
 *   <name>          test/fixtures/model-apis/<chat|responses|anthropic>/<name>.sse, one SSE message per write
 *   cut-<name>      the first half of its messages, then the socket is destroyed (a network error)
 *   end-<name>      the first half, then a clean end (a stream without the API's last event)
 *   stall-<name>    the first half, then silence until the client goes away
 *   s<status>       that status with the API's error body (529: Anthropic's overloaded_error); -ra<n>: Retry-After n s
 *   echo401         401 whose message echoes the header that carried the key
 * A step that streams first checks the request as the API would (required fields, the order of tool calls
 * and results, reasoning sent back as the API requires) and answers 400 in the API's error shape if it is wrong.
 */

type Api = 'chat' | 'responses' | 'anthropic';
type Obj = Record<string, unknown>;

interface Attempts {
  count: number;
  requests: Array<{ headers: Record<string, string | string[] | undefined>; body: unknown }>;
}
const attempts = new Map<string, Attempts>();

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const ENDPOINTS: Record<string, Api> = { 'chat/completions': 'chat', responses: 'responses', messages: 'anthropic' };

// A function, not a constant: index.ts imports this module before CORS_HEADERS is initialised (import cycle).
const sseHeaders = (): Record<string, string> => ({ ...CORS_HEADERS, 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });

const fixtureMessages = (api: Api, name: string): string[] =>
  readFileSync(new URL(`../fixtures/model-apis/${api}/${name.replace(/[^\w-]/g, '')}.sse`, import.meta.url), 'utf8').split(/(?<=\n\n)/);

const ANTHROPIC_ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};
const ANTHROPIC_MESSAGES: Record<number, string> = { 429: 'Number of request tokens has exceeded your per-minute rate limit', 529: 'Overloaded' };

function sendError(res: ServerResponse, api: Api, status: number, message: string, headers: Record<string, string> = {}): void {
  const body =
    api === 'anthropic'
      ? { type: 'error', error: { type: ANTHROPIC_ERROR_TYPES[status] ?? 'api_error', message } }
      : { error: { message, type: status === 400 ? 'invalid_request_error' : status === 429 ? 'requests' : 'server_error', param: null, code: null } };
  res.writeHead(status, { ...CORS_HEADERS, 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));
}

// ---- what each API refuses -------------------------------------------------------------------

function chatProblem(body: Obj): string | undefined {
  if (typeof body['model'] !== 'string') return 'model: field required';
  if (!Array.isArray(body['messages'])) return 'messages: field required';
  if (body['stream'] !== true) return 'stream must be true here';
  for (const m of body['messages'] as unknown[]) if (isObj(m) && 'reasoning_blocks' in m) return 'messages: reasoning_blocks is not a Chat Completions field';
  return undefined;
}

const RESPONSES_PARTS = new Set(['input_text', 'input_image', 'input_file']);

function responsesProblem(body: Obj): string | undefined {
  if (typeof body['model'] !== 'string') return "Missing required parameter: 'model'.";
  if (body['stream'] !== true) return 'stream must be true here';
  const input = body['input'];
  if (typeof input === 'string') return undefined;
  if (!Array.isArray(input)) return "Missing required parameter: 'input'.";
  const calls = new Set<string>();
  const stored = body['store'] !== false;
  for (let i = 0; i < input.length; i++) {
    const item: unknown = input[i];
    const at = `input[${i}]`;
    if (!isObj(item)) return `Invalid type for '${at}'.`;
    const type = item['type'] ?? 'message';
    if (type === 'message') {
      if (!['user', 'assistant', 'system', 'developer'].includes(String(item['role']))) return `Invalid value for '${at}.role'.`;
      const content = item['content'];
      if (typeof content === 'string') continue;
      if (!Array.isArray(content)) return `Missing required parameter: '${at}.content'.`;
      for (const part of content as unknown[]) {
        if (!isObj(part) || !RESPONSES_PARTS.has(String(part['type']))) return `Invalid content part in '${at}'.`;
        if (part['type'] === 'input_image' && !['low', 'high', 'auto'].includes(String(part['detail']))) return `Missing required parameter: '${at}.content.detail'.`;
      }
    } else if (type === 'function_call') {
      if (typeof item['call_id'] !== 'string' || typeof item['name'] !== 'string' || typeof item['arguments'] !== 'string') return `Missing required parameter: '${at}.call_id'.`;
      calls.add(item['call_id']);
    } else if (type === 'function_call_output') {
      if (typeof item['output'] !== 'string') return `Missing required parameter: '${at}.output'.`;
      if (!calls.has(String(item['call_id']))) return `No tool call found for function call output with call_id ${String(item['call_id'])}.`;
    } else if (type === 'reasoning') {
      if (typeof item['id'] !== 'string' || !Array.isArray(item['summary'])) return `Missing required parameter: '${at}.summary'.`;
      // as OpenAI answers: without store, a reasoning item can only be read from its encrypted content
      if (!stored && typeof item['encrypted_content'] !== 'string') return `Item with id '${item['id']}' not found. Items are not persisted when \`store\` is set to false.`;
      const next: unknown = input[i + 1];
      if (!isObj(next) || next['type'] === 'reasoning' || next['type'] === 'function_call_output' || next['role'] === 'user') {
        return `Item '${item['id']}' of type 'reasoning' was provided without its required following item.`;
      }
    } else return `Invalid value: '${String(type)}'.`;
  }
  for (const tool of (body['tools'] as unknown[] | undefined) ?? []) {
    if (!isObj(tool) || tool['type'] !== 'function' || typeof tool['name'] !== 'string') return "Missing required parameter: 'tools[0].name'.";
    if (tool['strict'] !== false) return 'Invalid schema for function: strict mode needs additionalProperties: false (send strict: false)';
  }
  return undefined;
}

function anthropicHeadersProblem(req: IncomingMessage): string | undefined {
  if (!req.headers['anthropic-version']) return 'anthropic-version: header is required';
  if (req.headers['origin'] && req.headers['anthropic-dangerous-direct-browser-access'] !== 'true') {
    return 'CORS requests must set the "anthropic-dangerous-direct-browser-access" header';
  }
  if (req.headers['authorization']) return 'authorization: this server takes the key as x-api-key';
  return undefined;
}

function anthropicProblem(body: Obj): string | undefined {
  if (typeof body['model'] !== 'string') return 'model: Field required';
  if (!(typeof body['max_tokens'] === 'number' && body['max_tokens'] >= 1)) return 'max_tokens: Field required';
  if (body['stream'] !== true) return 'stream must be true here';
  if (body['system'] !== undefined && typeof body['system'] !== 'string') return 'system: Input should be a valid string';
  const messages = body['messages'];
  if (!Array.isArray(messages) || messages.length === 0) return 'messages: Field required';
  let open: string[] = [];
  for (let i = 0; i < messages.length; i++) {
    const m: unknown = messages[i];
    const at = `messages.${i}`;
    if (!isObj(m) || (m['role'] !== 'user' && m['role'] !== 'assistant')) return `${at}.role: Input should be 'user' or 'assistant'`;
    if (i === 0 && m['role'] !== 'user') return 'messages: first message must use the "user" role';
    if (i > 0 && (messages[i - 1] as Obj)['role'] === m['role']) return `${at}: roles must alternate between "user" and "assistant"`;
    const content = m['content'];
    if (typeof content === 'string') {
      if (content === '') return `${at}: text content blocks must be non-empty`;
      if (open.length > 0) return `${at}: tool_use ids were found without tool_result blocks immediately after: ${open.join(', ')}`;
      continue;
    }
    if (!Array.isArray(content) || content.length === 0) return `${at}.content: Field required`;
    const uses: string[] = [];
    let sawOther = false;
    for (let j = 0; j < content.length; j++) {
      const block: unknown = content[j];
      const bat = `${at}.content.${j}`;
      if (!isObj(block)) return `${bat}: Input should be an object`;
      switch (block['type']) {
        case 'text':
          if (typeof block['text'] !== 'string' || block['text'] === '') return `${bat}: text content blocks must be non-empty`;
          sawOther = true;
          break;
        case 'image':
        case 'document':
          if (!isObj(block['source'])) return `${bat}.source: Field required`;
          sawOther = true;
          break;
        case 'thinking':
          if (m['role'] !== 'assistant' || typeof block['thinking'] !== 'string' || typeof block['signature'] !== 'string') return `${bat}.signature: Field required`;
          break;
        case 'redacted_thinking':
          if (m['role'] !== 'assistant' || typeof block['data'] !== 'string') return `${bat}.data: Field required`;
          break;
        case 'tool_use':
          if (m['role'] !== 'assistant' || typeof block['id'] !== 'string' || typeof block['name'] !== 'string' || !isObj(block['input'])) return `${bat}: invalid tool_use`;
          uses.push(block['id']);
          break;
        case 'tool_result': {
          if (m['role'] !== 'user') return `${bat}: tool_result blocks belong in user messages`;
          if (sawOther) return `${bat}: tool_result blocks must come first in the user message`;
          const id = String(block['tool_use_id']);
          if (!open.includes(id)) return `${bat}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${id}`;
          open = open.filter((o) => o !== id);
          break;
        }
        default:
          return `${bat}.type: Input tag '${String(block['type'])}' found using 'type' does not match any of the expected tags`;
      }
    }
    if (m['role'] === 'user' && open.length > 0) return `${at}: tool_use ids were found without tool_result blocks immediately after: ${open.join(', ')}`;
    if (m['role'] === 'assistant') open = uses;
  }
  for (const tool of (body['tools'] as unknown[] | undefined) ?? []) {
    if (!isObj(tool) || typeof tool['name'] !== 'string' || !isObj(tool['input_schema']) || tool['input_schema']['type'] !== 'object') return 'tools.0.input_schema: Field required';
  }
  return undefined;
}

// ---- playing a step ---------------------------------------------------------------------------

async function writeMessages(req: IncomingMessage, res: ServerResponse, messages: string[]): Promise<boolean> {
  let gone = false;
  res.on('close', () => {
    gone = true;
  });
  res.writeHead(200, sseHeaders());
  for (const message of messages) {
    if (gone) return false;
    res.write(message);
    await sleep(0);
  }
  return !gone;
}

async function playStep(step: string, api: Api, req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
  const status = /^s(\d{3})(?:-ra(\d+))?$/.exec(step);
  if (status) {
    const code = Number(status[1]);
    sendError(res, api, code, ANTHROPIC_MESSAGES[code] ?? `scripted ${code}`, status[2] !== undefined ? { 'Retry-After': status[2] } : {});
    return;
  }
  if (step === 'echo401') {
    const key = String(req.headers['x-api-key'] ?? req.headers['authorization'] ?? '');
    sendError(res, api, 401, `invalid x-api-key: ${key}`);
    return;
  }
  const problem =
    (api === 'anthropic' ? anthropicHeadersProblem(req) : undefined) ??
    (!isObj(body) ? 'the body is not a JSON object' : api === 'chat' ? chatProblem(body) : api === 'responses' ? responsesProblem(body) : anthropicProblem(body));
  if (problem) {
    sendError(res, api, 400, problem);
    return;
  }
  const [, how, name] = /^(?:(cut|end|stall)-)?([\w-]+)$/.exec(step) ?? [];
  let messages: string[];
  try {
    messages = fixtureMessages(api, name ?? '');
  } catch {
    sendError(res, api, 400, `unknown scripted step ${step}`);
    return;
  }
  if (!how) {
    if (await writeMessages(req, res, messages)) res.end();
    return;
  }
  const head = messages.slice(0, Math.ceil(messages.length / 2));
  if (!(await writeMessages(req, res, head))) return;
  if (how === 'end') res.end();
  else if (how === 'cut') {
    // long enough for the client to read what came: an errored body stream drops unread chunks
    await sleep(200);
    req.socket.destroy();
  } else {
    await new Promise<void>((resolve) => {
      res.on('close', () => resolve());
      req.on('close', () => resolve());
    });
  }
}

/** Scripted servers of the three model APIs under /apis/* (see the module comment). */
export const modelApiRoutes: RouteHandler = async (req, res, url) => {
  const path = url.pathname;
  if (!path.startsWith('/apis/')) return false;
  const attemptsMatch = /^\/apis\/attempts\/([\w-]+)$/.exec(path);
  if (attemptsMatch && req.method === 'GET') {
    res.writeHead(200, { ...CORS_HEADERS, 'Content-Type': 'application/json' }).end(JSON.stringify(attempts.get(attemptsMatch[1]!) ?? { count: 0, requests: [] }));
    return true;
  }
  const match = /^\/apis\/([\w-]+)\/([\w,-]+)\/v1\/(chat\/completions|responses|messages)$/.exec(path);
  if (!match) return false;
  if (req.method !== 'POST') {
    // a browser's reachability probe after a network failure: answered, never counted
    res.writeHead(405, { ...CORS_HEADERS, Allow: 'POST' }).end();
    return true;
  }
  const [, key, steps, endpoint] = match;
  const api = ENDPOINTS[endpoint!]!;
  const text = await readBody(req);
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // kept as text: the step answers 400
  }
  const record = attempts.get(key!) ?? { count: 0, requests: [] };
  attempts.set(key!, record);
  const list = steps!.split(',');
  const step = list[Math.min(record.count, list.length - 1)]!;
  record.count++;
  record.requests.push({ headers: { ...req.headers }, body });
  await playStep(step, api, req, res, body);
  return true;
};
