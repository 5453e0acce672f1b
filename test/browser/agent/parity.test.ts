// pagent parity: replay each provider capture behind test/fixtures/pagent/<scenario>.ndjson to our Agent
// (real LLM class over HTTP, same tools, system prompt, input and max_turns) and compare the events and the
// request bodies with what pagent produced and sent.
import { describe, expect, inject, it } from 'vitest';
import { Agent } from '../../../src/agent/agent.js';
import { LLM } from '../../../src/agent/llm/llm.js';
import type { ChatMessage, ToolSchema } from '../../../src/agent/messages.js';
import { Session } from '../../../src/agent/sessions/session.js';
import { tool, type Tool } from '../../../src/agent/tools/tools.js';
import type { WireEvent } from '../../../src/wire/events.js';

const api = inject('apiUrl');

const ndjson = import.meta.glob<string>('../../fixtures/pagent/*.ndjson', { query: '?raw', import: 'default', eager: true });
const metas = import.meta.glob<string>('../../fixtures/pagent/*.meta.json', { query: '?raw', import: 'default', eager: true });
const requestLogs = import.meta.glob<string>('../../fixtures/provider/*.requests.jsonl', { query: '?raw', import: 'default', eager: true });

interface Meta {
  user_input: string;
  system: string;
  tools: string[];
  max_turns: number;
}
interface RequestBody {
  messages: ChatMessage[];
  tools?: ToolSchema[];
}

const scenarios = Object.keys(ndjson)
  .map((path) => /([\w-]+)\.ndjson$/.exec(path)![1]!)
  .sort();

// Python's json.dumps with ensure_ascii=False: ", " and ": " separators, raw UTF-8.
const pyJson = (fields: Array<[string, string | number]>): string =>
  `{${fields.map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(', ')}}`;
const TEMPS: Record<string, number> = { Paris: 18, Tokyo: 21, Berlin: 12 };

// The Python tools behind the corpus (test/fixtures/README.md), rebuilt; schemas come verbatim from the requests.
const implementations: Record<string, (args: Record<string, unknown>) => string> = {
  get_weather: ({ city, unit }) => pyJson([['city', String(city)], ['temp', TEMPS[String(city)] ?? 15], ['unit', String(unit ?? 'celsius')]]),
  add: ({ a, b }) => String(Number(a) + Number(b)),
  explode: ({ reason }) => {
    throw new Error(`boom: ${String(reason)}`);
  },
  echo: ({ text }) => String(text),
  schema_demo: () => {
    throw new Error('schema_demo is never called');
  },
};

function toolsFrom(schemas: ToolSchema[]): Tool<never>[] {
  return schemas.map((schema) =>
    tool<Record<string, unknown>>({
      name: schema.function.name,
      description: schema.function.description,
      parameters: schema.function.parameters,
      execute: implementations[schema.function.name]!,
    }),
  );
}

/** openai-python's model_dump() writes every declared usage field, null when the provider did not send it. */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null).map(([k, v]) => [k, withoutNulls(v)]));
}

/** Our event, reduced to the params pagent sends (extra params such as stop_reason or elapsed_ms are allowed). */
function projectOnto(ours: WireEvent, theirs: { method: string; params: Record<string, unknown> }): { method: string; params: Record<string, unknown> } {
  const params = ours.params as Record<string, unknown>;
  const projected: Record<string, unknown> = {};
  for (const key of Object.keys(theirs.params)) projected[key] = params[key];
  return { method: ours.method, params: projected };
}

function normaliseUsage(event: { method: string; params: Record<string, unknown> }): { method: string; params: Record<string, unknown> } {
  if (!('usage' in event.params) || event.params['usage'] === null) return event;
  return { ...event, params: { ...event.params, usage: withoutNulls(event.params['usage']) } };
}

describe('pagent parity over the provider captures', () => {
  it('covers every corpus scenario', () => {
    expect(scenarios).toEqual(['max_turns', 'parallel_tools', 'reasoning', 'text', 'tool_error', 'tool_stream', 'unicode']);
  });

  for (const scenario of scenarios) {
    describe(scenario, () => {
      const meta = JSON.parse(metas[`../../fixtures/pagent/${scenario}.meta.json`]!) as Meta;
      const expected = ndjson[`../../fixtures/pagent/${scenario}.ndjson`]!
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as { jsonrpc: string; method: string; params: Record<string, unknown> })
        .map(({ method, params }) => ({ method, params }));
      const sent = requestLogs[`../../fixtures/provider/${scenario}.requests.jsonl`]!
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as RequestBody);

      async function replay(): Promise<{ events: WireEvent[]; requests: RequestBody[] }> {
        const key = crypto.randomUUID();
        const llm = new LLM(scenario, { baseURL: `${api}/replay/${scenario}/${key}/v1`, retries: 0 });
        const agent = new Agent({
          llm,
          session: new Session(meta.system),
          tools: toolsFrom(sent[0]?.tools ?? []),
          maxTurns: meta.max_turns,
        });
        const events: WireEvent[] = [];
        for await (const event of agent.events(meta.user_input)) events.push(event);
        const requests = (await (await fetch(`${api}/replay/${scenario}/${key}/requests`)).json()) as RequestBody[];
        return { events, requests };
      }

      it('emits the same events in the same order, every param pagent sends equal', async () => {
        const { events } = await replay();
        expect(events.map((e) => e.method)).toEqual(expected.map((e) => e.method));
        const ours = events.map((e, i) => normaliseUsage(projectOnto(e, expected[i]!)));
        expect(ours).toEqual(expected.map(normaliseUsage));
      });

      it('always sets ToolResult.ok, TurnEnd.stop_reason and RunEnd.stop_reason', async () => {
        const { events } = await replay();
        for (const e of events) {
          if (e.method === 'ToolResult') expect(typeof e.params.ok).toBe('boolean');
          if (e.method === 'TurnEnd' || e.method === 'RunEnd') expect(typeof e.params.stop_reason).toBe('string');
        }
        const last = events.at(-1)!;
        expect(last.method).toBe('RunEnd');
        if (meta.max_turns === 2) {
          expect(events.filter((e) => e.method === 'TurnEnd').at(-1)?.params).toEqual({ turn: 1, stopped: false, stop_reason: 'max_turns' });
        }
      });

      it('sends the same messages and tool schemas as pagent did', async () => {
        const { requests } = await replay();
        expect(requests).toHaveLength(sent.length);
        requests.forEach((body, i) => {
          expect(body.messages).toEqual(sent[i]!.messages);
          expect(body.tools).toEqual(sent[i]!.tools);
        });
      });
    });
  }
});
