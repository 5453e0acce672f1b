// One scripted conversation (reasoning, text, two parallel tool calls of which one fails, a second turn,
// then a second run with one more call) through the same Agent over each model API: the events must be
// the same whichever API, up to the reasoning text. The servers (test/server/model-apis.ts) check every
// request as the API would; the tests check that the reasoning each API needs back went back unchanged.
import { describe, expect, inject, it } from 'vitest';
import { Agent } from '../../../src/agent/agent.js';
import { LLM } from '../../../src/agent/llm/llm.js';
import type { ModelApiName } from '../../../src/agent/llm/model-api.js';
import { Session } from '../../../src/agent/sessions/session.js';
import { tool } from '../../../src/agent/tools/tools.js';
import type { WireEvent } from '../../../src/wire/events.js';

const api = inject('apiUrl');
const KEY = 'sk-test-PARITY-0123456789abcdef';
const fixtures = import.meta.glob<string>('../../fixtures/model-apis/*/parity-*.sse', { query: '?raw', import: 'default', eager: true });
const fixture = (dir: string, n: number): string => fixtures[`../../fixtures/model-apis/${dir}/parity-${n}.sse`]!;

interface Recorded {
  count: number;
  requests: Array<{ headers: Record<string, string>; body: Record<string, unknown> }>;
}

const KWARGS: Record<ModelApiName, Record<string, unknown>> = {
  'chat-completions': {},
  responses: { reasoning: { effort: 'low', summary: 'auto' } },
  'anthropic-messages': { thinking: { type: 'enabled', budget_tokens: 1024 } },
};

/** Token counts in one shape: input counts cached tokens too (Anthropic's `input_tokens` does not). */
function tokens(usage: Record<string, unknown> | null): { input: number; output: number; cached: number } | null {
  if (!usage) return null;
  const n = (v: unknown): number => (typeof v === 'number' ? v : 0);
  const details = (usage['prompt_tokens_details'] ?? usage['input_tokens_details']) as Record<string, unknown> | undefined;
  if ('prompt_tokens' in usage) return { input: n(usage['prompt_tokens']), output: n(usage['completion_tokens']), cached: n(details?.['cached_tokens']) };
  if ('cache_read_input_tokens' in usage) {
    const cached = n(usage['cache_read_input_tokens']);
    return { input: n(usage['input_tokens']) + cached + n(usage['cache_creation_input_tokens']), output: n(usage['output_tokens']), cached };
  }
  return { input: n(usage['input_tokens']), output: n(usage['output_tokens']), cached: n(details?.['cached_tokens']) };
}

/** The events with the reasoning text left out, tool call ids numbered in order of appearance and usage in one shape. */
function comparable(events: WireEvent[]): unknown[] {
  const ids = new Map<string, string>();
  const id = (raw: string): string => {
    if (!ids.has(raw)) ids.set(raw, `call-${ids.size + 1}`);
    return ids.get(raw)!;
  };
  return events
    .filter((e) => e.method !== 'ReasoningDelta')
    .map((e) => {
      const params = { ...(e.params as Record<string, unknown>) };
      if ('reasoning_content' in params) params['reasoning_content'] = '(reasoning)';
      if ('usage' in params) params['usage'] = tokens(params['usage'] as Record<string, unknown> | null);
      if ('elapsed_ms' in params) params['elapsed_ms'] = 0;
      if (typeof params['tool_call_id'] === 'string') params['tool_call_id'] = id(params['tool_call_id']);
      if (Array.isArray(params['tool_calls'])) {
        params['tool_calls'] = (params['tool_calls'] as Array<{ id: string; function: unknown }>).map((c) => ({ ...c, id: id(c.id) }));
      }
      return { method: e.method, params };
    });
}

async function converse(name: ModelApiName): Promise<{ events: WireEvent[]; reasoning: string[]; recorded: Recorded; agent: Agent }> {
  const key = `parity${name.replace(/\W/g, '')}${Math.random().toString(36).slice(2, 8)}`;
  const llm = new LLM('scripted-model', {
    baseURL: `${api}/apis/${key}/parity-1,parity-2,parity-3,parity-4/v1`,
    api: name,
    apiKey: KEY,
    retries: 0,
    requestKwargs: KWARGS[name],
  });
  const agent = new Agent({
    llm,
    session: new Session('Be brief.'),
    tools: [
      tool<{ city: string }>({
        name: 'get_weather',
        description: 'Weather of a city',
        parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        execute: ({ city }) => JSON.stringify({ city, temp: city === 'Paris' ? 18 : 21 }),
      }),
      tool<{ reason: string }>({
        name: 'explode',
        description: 'Always fails',
        parameters: { type: 'object', properties: { reason: { type: 'string' } }, required: ['reason'] },
        execute: ({ reason }) => {
          throw new Error(`boom: ${reason}`);
        },
      }),
    ],
  });
  const events: WireEvent[] = [];
  for await (const e of agent.events('Weather in Paris, and explode please.')) events.push(e);
  for await (const e of agent.events('And Tokyo?')) events.push(e);
  const reasoning = events.filter((e) => e.method === 'StepEnd').map((e) => (e.method === 'StepEnd' ? e.params.reasoning_content : ''));
  const recorded = (await (await fetch(`${api}/apis/attempts/${key}`)).json()) as Recorded;
  return { events, reasoning, recorded, agent };
}

const APIS: ModelApiName[] = ['chat-completions', 'responses', 'anthropic-messages'];

describe('the same conversation through every model API', () => {
  it('gives the same events through Chat Completions, Responses and Anthropic Messages, up to reasoning text', async () => {
    const [chat, responses, anthropic] = await Promise.all(APIS.map(converse));
    for (const run of [chat!, responses!, anthropic!]) {
      expect(run.recorded.count).toBe(4);
      expect(run.events.filter((e) => e.method === 'RunError')).toEqual([]);
      expect(run.reasoning.every((r) => r !== '')).toBe(true);
    }
    // each spoke its own API
    expect(chat!.recorded.requests.every((r) => Array.isArray(r.body['messages']) && r.body['stream_options'] !== undefined)).toBe(true);
    expect(responses!.recorded.requests.every((r) => Array.isArray(r.body['input']) && r.body['messages'] === undefined)).toBe(true);
    expect(anthropic!.recorded.requests.every((r) => typeof r.body['max_tokens'] === 'number' && r.headers['anthropic-version'] === '2023-06-01')).toBe(true);
    expect(comparable(responses!.events)).toEqual(comparable(chat!.events));
    expect(comparable(anthropic!.events)).toEqual(comparable(chat!.events));
    // and the conversation is the one scripted: two runs, three turns of tools, a failed call, the answers
    const methods = chat!.events.map((e) => e.method).filter((m, i, all) => m !== all[i - 1] || (m !== 'TextDelta' && m !== 'ReasoningDelta'));
    expect(methods).toEqual([
      'RunBegin', 'TurnBegin', 'ReasoningDelta', 'TextDelta', 'StepEnd', 'ToolCallBegin', 'ToolResult', 'ToolCallBegin', 'ToolResult', 'TurnEnd',
      'TurnBegin', 'ReasoningDelta', 'TextDelta', 'StepEnd', 'TurnEnd', 'RunEnd',
      'RunBegin', 'TurnBegin', 'ReasoningDelta', 'StepEnd', 'ToolCallBegin', 'ToolResult', 'TurnEnd',
      'TurnBegin', 'ReasoningDelta', 'TextDelta', 'StepEnd', 'TurnEnd', 'RunEnd',
    ]);
    const results = chat!.events.flatMap((e) => (e.method === 'ToolResult' ? [[e.params.content, e.params.ok]] : []));
    expect(results).toEqual([
      ['{"city":"Paris","temp":18}', true],
      ['explode error: boom: asked', false],
      ['{"city":"Tokyo","temp":21}', true],
    ]);
    const ends = chat!.events.flatMap((e) => (e.method === 'RunEnd' ? [[e.params.content, e.params.stop_reason]] : []));
    expect(ends).toEqual([
      ['Paris is 18 °C. The explosion failed: boom: asked.', 'no_tool_calls'],
      ['Tokyo is 21 °C.', 'no_tool_calls'],
    ]);
    // the reasoning text is the same too here (the fixtures script it so), joined the same way
    expect(responses!.reasoning).toEqual(chat!.reasoning);
    expect(anthropic!.reasoning).toEqual(chat!.reasoning);
  });

  it('sends Anthropic its signed thinking and redacted thinking back unchanged, first in each assistant turn', async () => {
    const { recorded, agent } = await converse('anthropic-messages');
    const signatures = (n: number): string[] => [...fixture('anthropic', n).matchAll(/"signature":"(Eq[^"]+)"/g)].map((m) => m[1]!);
    const assistantTurns = (i: number): Array<Array<Record<string, unknown>>> =>
      (recorded.requests[i]!.body['messages'] as Array<{ role: string; content: Array<Record<string, unknown>> }>).filter((m) => m.role === 'assistant').map((m) => m.content);
    // request 2 continues answer 1: its two thinking blocks, as streamed, then the text and the calls
    const [first] = assistantTurns(1);
    expect(first!.map((b) => b['type'])).toEqual(['thinking', 'thinking', 'text', 'tool_use', 'tool_use']);
    expect(first!.slice(0, 2)).toEqual([
      { type: 'thinking', thinking: 'The user wants the weather in Paris and an explosion.', signature: signatures(1)[0] },
      { type: 'thinking', thinking: 'Both tools can run at once.', signature: signatures(1)[1] },
    ]);
    // request 4 continues answer 3, which had a redacted_thinking block after its thinking
    const turns = assistantTurns(3);
    expect(turns).toHaveLength(3);
    expect(turns[2]!.slice(0, 2)).toEqual([
      { type: 'thinking', thinking: 'Tokyo next: one call.', signature: signatures(3)[0] },
      { type: 'redacted_thinking', data: /"data":"(EmwK[^"]+)"/.exec(fixture('anthropic', 3))![1] },
    ]);
    // the key went as x-api-key with the headers the API requires from a page, never as a bearer token
    const headers = recorded.requests[0]!.headers;
    expect(headers['x-api-key']).toBe(KEY);
    expect(headers['anthropic-version']).toBe('2023-06-01');
    expect(headers['anthropic-dangerous-direct-browser-access']).toBe('true');
    expect(headers['authorization']).toBeUndefined();
    // the session keeps them on the assistant messages
    const kept = agent.session.messages.filter((m) => m.role === 'assistant').map((m) => (m.role === 'assistant' ? (m.reasoning_blocks ?? []).map((b) => b.type) : []));
    expect(kept).toEqual([['thinking', 'thinking'], ['thinking'], ['thinking', 'redacted_thinking'], ['thinking']]);
  });

  it('asks the Responses API for encrypted reasoning and sends each reasoning item back with it', async () => {
    const { recorded } = await converse('responses');
    const encrypted = (n: number): string => /"encrypted_content":"(gAAAA[^"]+)"/.exec(fixture('responses', n))![1]!;
    const first = recorded.requests[0]!.body;
    expect(first['store']).toBe(false);
    expect(first['include']).toEqual(['reasoning.encrypted_content']);
    expect(first['instructions']).toBe('Be brief.');
    expect(recorded.requests[0]!.headers['authorization']).toBe(`Bearer ${KEY}`);
    const reasoningItems = (i: number): unknown[] => (recorded.requests[i]!.body['input'] as Array<Record<string, unknown>>).filter((item) => item['type'] === 'reasoning');
    expect(reasoningItems(1)).toEqual([
      {
        type: 'reasoning',
        id: 'rs_0scripted1reasoning',
        summary: [
          { type: 'summary_text', text: 'The user wants the weather in Paris and an explosion.' },
          { type: 'summary_text', text: 'Both tools can run at once.' },
        ],
        encrypted_content: encrypted(1),
      },
    ]);
    expect(reasoningItems(3).map((item) => (item as { encrypted_content: string }).encrypted_content)).toEqual([encrypted(1), encrypted(2), encrypted(3)]);
    const outputs = (recorded.requests[1]!.body['input'] as Array<Record<string, unknown>>).filter((item) => item['type'] === 'function_call_output');
    expect(outputs).toEqual([
      { type: 'function_call_output', call_id: 'call_Q6pW65MUgW9vF59Bm', output: '{"city":"Paris","temp":18}' },
      { type: 'function_call_output', call_id: 'call_AB6AaRZ1FYZB2RwS6', output: 'explode error: boom: asked' },
    ]);
  });
});
