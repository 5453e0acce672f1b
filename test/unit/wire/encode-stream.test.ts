import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Agent, encodeStream, encodeStreamHeaders, tool, type UnknownEvent, type WireEvent } from '../../../src/index.js';
import { agUiConsume, aiSdkConsume } from '../../helpers/consumers.js';
import { call, scriptedModel } from '../agent/scripted-model.js';
import { decodeChunks, decodeEveryChunking } from './decode-helpers.js';

// ---- sources of events: pagent's own captures, and our Agent on a scripted model ----------------

const fixture = (name: string): string => readFileSync(new URL(`../../fixtures/pagent/${name}.ndjson`, import.meta.url), 'utf8');
const CAPTURES = ['text', 'reasoning', 'parallel_tools', 'tool_stream', 'tool_error', 'max_turns', 'unicode'] as const;
const captureEvents = (name: string): WireEvent[] => decodeChunks([fixture(name)]).events as WireEvent[];

const echo = tool({
  name: 'echo',
  description: 'Echo the text',
  parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  execute: ({ text }: { text: string }) => text,
});
const explode = tool({
  name: 'explode',
  description: 'Fails',
  parameters: { type: 'object', properties: {} },
  execute: () => {
    throw new Error('disk full');
  },
});

async function collect(events: AsyncIterable<WireEvent>): Promise<WireEvent[]> {
  const out: WireEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

/** Runs of our Agent: invalid arguments and a failing tool, a provider error, a cancel, two runs in one stream. */
const agentRuns: Record<string, () => Promise<WireEvent[]>> = {
  failingTools: () =>
    collect(
      new Agent({
        llm: scriptedModel([
          { reasoning: ['Plan.'], text: ['Trying.'], toolCalls: [call('c1', 'echo', '{"text": '), call('c2', 'explode', '{}'), call('c3', 'echo', '{"text": "hi"}')] },
          { text: ['Gave up.'] },
        ]),
        tools: [echo, explode],
      }).events('go'),
    ),
  providerError: () =>
    collect(new Agent({ llm: scriptedModel([{ text: ['Partial'], error: new Error('model overloaded') }]), retries: 0 } as never).events('go')),
  cancelled: async () => {
    const abort = new AbortController();
    const agent = new Agent({ llm: scriptedModel([{ text: ['Stopped ', 'here'], beforeStep: () => abort.abort() }]) });
    return collect(agent.events('go', { signal: abort.signal }));
  },
  twoRuns: async () => {
    const agent = new Agent({ llm: scriptedModel([{ text: ['First.'] }, { text: ['Second.'] }]) });
    return [...(await collect(agent.events('one'))), ...(await collect(agent.events('two')))];
  },
};

async function* replay(events: Array<WireEvent | UnknownEvent>): AsyncGenerator<WireEvent | UnknownEvent> {
  yield* events;
}

async function encode(events: Array<WireEvent | UnknownEvent>, dialect: 'pagent' | 'ag-ui' | 'ai-sdk', format?: 'ndjson' | 'sse'): Promise<string> {
  let body = '';
  for await (const chunk of encodeStream(replay(events), { dialect, format })) body += chunk;
  return body;
}

// ---- what the events say, read independently of the encoders ------------------------------------

interface Turn {
  reasoning: string;
  text: string;
  calls: Array<{ id: string; name: string; args: string }>;
  results: Array<{ id: string; name: string; content: string; ok: boolean }>;
}
interface Run {
  turns: Turn[];
  error: string | undefined;
  end: 'ok' | 'cancelled' | 'error';
}

/** Tool arguments compared as JSON values when they are JSON (the AI SDK carries input as a value). */
const sameArgs = (args: string): string => {
  try {
    return JSON.stringify(JSON.parse(args));
  } catch {
    return args;
  }
};

/** The runs the events spell: per turn its reasoning, text, calls and results; how the run ended. */
function runsOf(events: Array<WireEvent | UnknownEvent>, options: { okFlag?: boolean } = {}): Run[] {
  const runs: Run[] = [];
  let run: Run | undefined;
  const turn = (): Turn => {
    run ??= { turns: [], error: undefined, end: 'error' };
    if (run.turns.length === 0) run.turns.push({ reasoning: '', text: '', calls: [], results: [] });
    return run.turns.at(-1)!;
  };
  for (const e of events) {
    if ('unknown' in e) continue;
    switch (e.method) {
      case 'RunBegin':
        run = { turns: [], error: undefined, end: 'error' };
        break;
      case 'TurnBegin':
        run!.turns.push({ reasoning: '', text: '', calls: [], results: [] });
        break;
      case 'TextDelta':
        turn().text += e.params.text;
        break;
      case 'ReasoningDelta':
        turn().reasoning += e.params.text;
        break;
      case 'ToolCallBegin':
        turn().calls.push({ id: e.params.tool_call_id, name: e.params.name, args: sameArgs(e.params.arguments) });
        break;
      case 'ToolResult':
        turn().results.push({ id: e.params.tool_call_id, name: e.params.name, content: e.params.content, ok: options.okFlag === false ? true : e.params.ok !== false });
        break;
      case 'RunError':
        run!.error = e.params.message;
        break;
      case 'RunEnd':
        run!.end = e.params.stop_reason === 'cancelled' ? 'cancelled' : e.params.stop_reason === 'error' || run!.error ? 'error' : 'ok';
        runs.push(run!);
        run = undefined;
        break;
    }
  }
  return runs;
}

/** The messages an AG-UI client should hold after these runs (ids aside). */
function expectedAgUiMessages(runs: Run[]): unknown[] {
  return runs.flatMap((run) =>
    run.turns.flatMap((t) => [
      ...(t.reasoning ? [{ role: 'reasoning', content: t.reasoning }] : []),
      ...(t.text || t.calls.length
        ? [{ role: 'assistant', ...(t.text ? { content: t.text } : {}), ...(t.calls.length ? { toolCalls: t.calls.map((c) => ({ id: c.id, name: c.name, args: c.args })) } : {}) }]
        : []),
      ...t.results.map((r) => ({ role: 'tool', toolCallId: r.id, content: r.content })),
    ]),
  );
}

/** An AG-UI client's messages, ids aside. */
function agUiMessagesShape(messages: Array<Record<string, unknown>>): unknown[] {
  return messages.map((m) => {
    const calls = m['toolCalls'] as Array<{ id: string; function: { name: string; arguments: string } }> | undefined;
    return {
      role: m['role'],
      ...(m['content'] ? { content: m['content'] } : {}),
      ...(calls?.length ? { toolCalls: calls.map((c) => ({ id: c.id, name: c.function.name, args: sameArgs(c.function.arguments) })) } : {}),
      ...(m['toolCallId'] ? { toolCallId: m['toolCallId'] } : {}),
    };
  });
}

/** The parts a `useChat` client should show per run. */
function expectedUiParts(runs: Run[]): unknown[][] {
  return runs.map((run) =>
    run.turns.flatMap((t) => [
      'step-start',
      ...(t.reasoning ? [{ type: 'reasoning', text: t.reasoning }] : []),
      ...(t.text ? [{ type: 'text', text: t.text }] : []),
      ...t.calls.map((c) => {
        const r = t.results.find((x) => x.id === c.id);
        let input: unknown;
        try {
          input = JSON.parse(c.args);
        } catch {
          return { type: `tool-${c.name}`, toolCallId: c.id, state: 'output-error', rawInput: c.args, errorText: r?.content };
        }
        return r?.ok === false
          ? { type: `tool-${c.name}`, toolCallId: c.id, state: 'output-error', input, errorText: r.content }
          : { type: `tool-${c.name}`, toolCallId: c.id, state: 'output-available', input, output: r?.content };
      }),
    ]),
  );
}

/** A UI message's parts, reduced to what is shown. */
function uiPartsShape(parts: Array<Record<string, unknown>>): unknown[] {
  return parts.map((p) => {
    if (p['type'] === 'step-start') return 'step-start';
    if (p['type'] === 'text' || p['type'] === 'reasoning') return { type: p['type'], text: p['text'] };
    const shape: Record<string, unknown> = { type: p['type'], toolCallId: p['toolCallId'], state: p['state'] };
    if (p['input'] !== undefined) shape['input'] = p['input'];
    if (p['rawInput'] !== undefined && p['input'] === undefined) shape['rawInput'] = p['rawInput'];
    if (p['state'] === 'output-error') shape['errorText'] = p['errorText'];
    else shape['output'] = p['output'];
    return shape;
  });
}

async function sources(): Promise<Array<[string, WireEvent[]]>> {
  const out: Array<[string, WireEvent[]]> = CAPTURES.map((name) => [`pagent/${name}`, captureEvents(name)]);
  for (const [name, run] of Object.entries(agentRuns)) out.push([`agent: ${name}`, await run()]);
  return out;
}

describe('encodeStream to AG-UI: @ag-ui/client accepts it and rebuilds the messages', () => {
  it('every capture and Agent run: HttpAgent (SSE parsing, verifyEvents, reducer) takes it without complaint', async () => {
    for (const [name, events] of await sources()) {
      const runs = runsOf(events);
      const outcome = await agUiConsume(await encode(events, 'ag-ui'));
      expect(outcome.rejected, name).toBeUndefined();
      expect(agUiMessagesShape(outcome.messages as never), name).toEqual(expectedAgUiMessages(runs));
      expect(outcome.ends, name).toEqual(runs.map((r) => (r.end === 'ok' ? 'success' : r.end === 'cancelled' ? 'cancelled' : `error: ${r.error}`)));
    }
  });

  it('a stream our client verifies is refused by HttpAgent when a message is left open (the check is real)', async () => {
    const body = 'data: {"type":"RUN_STARTED","threadId":"t","runId":"r"}\n\ndata: {"type":"TEXT_MESSAGE_START","messageId":"m"}\n\ndata: {"type":"RUN_FINISHED","threadId":"t","runId":"r"}\n\n';
    expect((await agUiConsume(body)).rejected).toMatch(/text messages are still active/);
  });
});

describe('encodeStream to the AI SDK: readUIMessageStream accepts it and rebuilds the messages', () => {
  it('every capture and Agent run: one UI message per run with the same parts', async () => {
    for (const [name, events] of await sources()) {
      const runs = runsOf(events);
      const { messages, errors } = await aiSdkConsume(await encode(events, 'ai-sdk'));
      expect(messages.map((m) => uiPartsShape(m.parts as never)), name).toEqual(expectedUiParts(runs));
      expect(messages.every((m) => m.role === 'assistant'), name).toBe(true);
      expect(errors, name).toEqual(runs.flatMap((r) => (r.error ? [r.error] : [])));
    }
  });

  it('ends the body with [DONE] and names the protocol in the headers', async () => {
    const body = await encode(captureEvents('text'), 'ai-sdk');
    expect(body.endsWith('data: {"type":"finish","finishReason":"stop"}\n\ndata: [DONE]\n\n')).toBe(true);
    expect(encodeStreamHeaders({ dialect: 'ai-sdk' })).toEqual({ 'Content-Type': 'text/event-stream', 'x-vercel-ai-ui-message-stream': 'v1' });
    expect(encodeStreamHeaders({ dialect: 'ag-ui' })).toEqual({ 'Content-Type': 'text/event-stream' });
    expect(encodeStreamHeaders({ dialect: 'pagent' })).toEqual({ 'Content-Type': 'application/x-ndjson' });
  });
});

describe('round trip: our events → their bytes → our events, the same runs', () => {
  it.each(['ag-ui', 'ai-sdk', 'pagent'] as const)('%s, SSE and NDJSON, at every chunking', async (dialect) => {
    for (const [name, events] of await sources()) {
      // AG-UI has no failure flag on a tool result
      const okFlag = dialect !== 'ag-ui';
      for (const format of ['sse', 'ndjson'] as const) {
        const decoded = decodeEveryChunking(await encode(events, dialect, format), {}, 4).events;
        expect(runsOf(decoded, { okFlag }), `${name} as ${dialect} ${format}`).toEqual(runsOf(events, { okFlag }));
      }
    }
  });

  it('pagent output is our events exactly, unknown events included', async () => {
    const events: Array<WireEvent | UnknownEvent> = [...captureEvents('parallel_tools')];
    events.splice(3, 0, { method: 'Heartbeat', params: { n: 1 }, unknown: true });
    const decoded = decodeChunks([await encode(events, 'pagent')], { includeUnknown: true }).events;
    expect(decoded).toEqual(events);
  });
});

describe('encodeStream keeps the run contract whatever the input does', () => {
  const decodeBack = async (events: WireEvent[], dialect: 'ag-ui' | 'ai-sdk' | 'pagent') => decodeChunks([await encode(events, dialect)]).events;

  it.each(['ag-ui', 'ai-sdk', 'pagent'] as const)('%s: an input cut mid-run ends that run as failed, with the partial answer', async (dialect) => {
    const whole = captureEvents('tool_stream');
    const cut = whole.slice(0, whole.findIndex((e) => e.method === 'ToolResult'));
    expect(cut.map((e) => e.method)).toContain('ToolCallBegin');
    const decoded = await decodeBack(cut, dialect);
    expect(decoded.filter((e) => e.method === 'RunError')).toEqual([
      { method: 'RunError', params: { message: 'The event stream ended before the run did', code: dialect === 'pagent' ? 'truncated' : 'provider' } },
    ]);
    expect(decoded.at(-1)).toMatchObject({ method: 'RunEnd', params: { stop_reason: 'error' } });
    expect(decoded.filter((e) => e.method === 'TextDelta').map((e) => (e.params as { text: string }).text).join('')).toBe(
      cut.filter((e) => e.method === 'TextDelta').map((e) => (e.params as { text: string }).text).join(''),
    );
  });

  it('events outside a run get a run of their own', async () => {
    const decoded = await decodeBack([{ method: 'TextDelta', params: { text: 'stray' } }], 'ag-ui');
    expect(decoded.map((e) => e.method)).toEqual(['RunBegin', 'TurnBegin', 'TextDelta', 'RunError', 'TurnEnd', 'RunEnd']);
  });

  it('a source that throws mid-run closes the run as failed, then rethrows', async () => {
    async function* failing(): AsyncGenerator<WireEvent> {
      yield { method: 'RunBegin', params: { user_input: 'q' } };
      yield { method: 'TextDelta', params: { text: 'half' } };
      throw new Error('socket closed');
    }
    const chunks: string[] = [];
    await expect(async () => {
      for await (const chunk of encodeStream(failing(), { dialect: 'ai-sdk' })) chunks.push(chunk);
    }).rejects.toThrow('socket closed');
    expect(chunks.slice(-3)).toEqual([
      'data: {"type":"error","errorText":"The event stream failed: socket closed"}\n\n',
      'data: {"type":"finish-step"}\n\n',
      'data: {"type":"finish","finishReason":"error"}\n\n',
    ]);
  });

  it('breaking out of the loop stops reading the source', async () => {
    let finished = false;
    async function* endless(): AsyncGenerator<WireEvent> {
      try {
        yield { method: 'RunBegin', params: { user_input: 'q' } };
        for (;;) yield { method: 'TextDelta', params: { text: 'x' } };
      } finally {
        finished = true;
      }
    }
    let n = 0;
    for await (const _ of encodeStream(endless(), { dialect: 'ag-ui' })) if (++n === 5) break;
    expect(finished).toBe(true);
  });
});

describe('agent.wire(input, {dialect})', () => {
  it('writes the AI SDK stream of the run, which readUIMessageStream rebuilds', async () => {
    const agent = new Agent({ llm: scriptedModel([{ text: ['Hi ', 'there.'] }]) });
    let body = '';
    for await (const chunk of agent.wire('hello', { dialect: 'ai-sdk' })) body += chunk;
    const { messages } = await aiSdkConsume(body);
    expect(messages.map((m) => uiPartsShape(m.parts as never))).toEqual([['step-start', { type: 'text', text: 'Hi there.' }]]);
  });

  it('still writes pagent NDJSON lines by default', async () => {
    const agent = new Agent({ llm: scriptedModel([{ text: ['ok'] }]) });
    const lines: string[] = [];
    for await (const line of agent.wire('hello')) lines.push(line);
    expect(lines[0]).toBe('{"jsonrpc":"2.0","method":"RunBegin","params":{"user_input":"hello"}}\n');
    expect(lines.every((l) => l.endsWith('\n') && !l.startsWith('data:'))).toBe(true);
  });
});
