import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import type { ChatMessage } from '../../../src/agent/messages.js';
import { decodeWireStream } from '../../../src/wire/decode-stream.js';
import type { WireEvent } from '../../../src/wire/events.js';
import { addQuestion, addUserMessage, setApproval, settleQuestion, showMore } from '../../../src/chat/timeline/commands.js';
import { blockText, createTimeline, type AnswerItem, type ReasoningItem, type TimelineItem, type TimelineState, type ToolItem } from '../../../src/chat/timeline/items.js';
import { PRETTY_JSON_MAX, summariseUsage } from '../../../src/chat/timeline/display-values.js';
import { reduceTimeline } from '../../../src/chat/timeline/reducer.js';
import { timelineFromMessages } from '../../../src/chat/timeline/rebuild.js';

const FIXTURES = new URL('../../fixtures/', import.meta.url);
const END = { content: '', tool_calls: [], reasoning_content: '', usage: null };

function run(events: WireEvent[], state: TimelineState = createTimeline()): TimelineState {
  return events.reduce(reduceTimeline, state);
}
const kinds = (s: TimelineState): string[] => s.items.map((i) => i.kind);
const only = <K extends TimelineItem['kind']>(s: TimelineState, kind: K) =>
  s.items.filter((i): i is Extract<TimelineItem, { kind: K }> => i.kind === kind);

async function decodeFixture(path: string): Promise<WireEvent[]> {
  const bytes = readFileSync(new URL(path, FIXTURES));
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(new Uint8Array(bytes));
      c.close();
    },
  });
  const out: WireEvent[] = [];
  for await (const e of decodeWireStream(body)) out.push(e);
  return out;
}

describe('timeline reducer', () => {
  it('appends text deltas to one streaming answer and ends it at RunEnd', () => {
    let s = run([
      { method: 'RunBegin', params: { user_input: 'Hi' } },
      { method: 'TurnBegin', params: { turn: 0 } },
      { method: 'TextDelta', params: { text: 'Hel' } },
      { method: 'TextDelta', params: { text: 'lo' } },
    ]);
    expect(kinds(s)).toEqual(['user', 'answer']);
    const answer = only(s, 'answer')[0]!;
    expect(blockText(answer.text)).toBe('Hello');
    expect(answer.streaming).toBe(true);
    expect(s.runOpen).toBe(true);
    s = reduceTimeline(s, { method: 'RunEnd', params: { ...END, content: 'Hello', stop_reason: 'no_tool_calls' } });
    expect(only(s, 'answer')[0]!.streaming).toBe(false);
    expect(s.runOpen).toBe(false);
    expect(kinds(s)).toEqual(['user', 'answer', 'run-end']);
  });

  it('keeps reasoning open while it streams and closes it when the answer starts', () => {
    let s = run([
      { method: 'RunBegin', params: { user_input: 'q' } },
      { method: 'ReasoningDelta', params: { text: 'think' } },
    ]);
    expect((s.items[1] as ReasoningItem).streaming).toBe(true);
    s = reduceTimeline(s, { method: 'TextDelta', params: { text: 'answer' } });
    expect((s.items[1] as ReasoningItem).streaming).toBe(false);
    expect(blockText((s.items[1] as ReasoningItem).text)).toBe('think');
    expect((s.items[2] as AnswerItem).streaming).toBe(true);
  });

  it('indents arguments up to PRETTY_JSON_MAX characters and leaves longer ones as sent, without parsing them', () => {
    const atMost = JSON.stringify({ data: 'x'.repeat(PRETTY_JSON_MAX - 11) });
    const over = JSON.stringify({ data: 'x'.repeat(PRETTY_JSON_MAX) });
    expect(atMost.length).toBe(PRETTY_JSON_MAX);
    const parse = vi.spyOn(JSON, 'parse');
    const s = run([
      { method: 'RunBegin', params: { user_input: 'q' } },
      { method: 'ToolCallBegin', params: { tool_call_id: 'a', name: 'dump', arguments: atMost } },
      { method: 'ToolCallBegin', params: { tool_call_id: 'b', name: 'dump', arguments: over } },
    ]);
    const [a, b] = only(s, 'tool');
    expect(a!.prettyArguments).toBe(JSON.stringify(JSON.parse(atMost), null, 2));
    expect(b!.prettyArguments).toBeUndefined();
    expect(b!.arguments).toBe(over);
    expect(parse.mock.calls.map(([text]) => text)).not.toContain(over);
    parse.mockRestore();
  });

  it('shows a tool call pending, then its result, duration and failure', () => {
    let s = run([
      { method: 'RunBegin', params: { user_input: 'q' } },
      { method: 'ToolCallBegin', params: { tool_call_id: 'a', name: 'get_weather', arguments: '{"city":"Paris"}' } },
      { method: 'ToolCallBegin', params: { tool_call_id: 'b', name: 'explode', arguments: '{not json' } },
    ]);
    const [a, b] = only(s, 'tool');
    expect(a!.status).toBe('pending');
    expect(a!.prettyArguments).toBe('{\n  "city": "Paris"\n}');
    expect(b!.prettyArguments).toBeUndefined();
    expect(b!.arguments).toBe('{not json');
    s = run(
      [
        { method: 'ToolResult', params: { tool_call_id: 'a', name: 'get_weather', content: '18', ok: true, elapsed_ms: 1234 } },
        { method: 'ToolResult', params: { tool_call_id: 'b', name: 'explode', content: 'explode error: boom', ok: false } },
      ],
      s,
    );
    const [a2, b2] = only(s, 'tool');
    expect([a2!.status, a2!.result, a2!.elapsedMs]).toEqual(['ok', '18', 1234]);
    expect([b2!.status, b2!.result]).toEqual(['failed', 'explode error: boom']);
  });

  it('treats a ToolResult without ok as success', () => {
    const s = run([
      { method: 'ToolCallBegin', params: { tool_call_id: 'a', name: 't', arguments: '{}' } },
      { method: 'ToolResult', params: { tool_call_id: 'a', name: 't', content: 'x' } },
    ]);
    expect(only(s, 'tool')[0]!.status).toBe('ok');
  });

  it('shows a RunError with the run input for a retry', () => {
    const s = run([
      { method: 'RunBegin', params: { user_input: 'again?' } },
      { method: 'RunError', params: { message: 'HTTP 500: overloaded', code: 'http', status: 500 } },
      { method: 'RunEnd', params: { ...END, stop_reason: 'error' } },
    ]);
    const error = only(s, 'error')[0]!;
    expect([error.message, error.code, error.status, error.input]).toEqual(['HTTP 500: overloaded', 'http', 500, 'again?']);
    expect(only(s, 'run-end')[0]!.failed).toBe(true);
  });

  it('keeps a cancelled run\'s partial answer, marked stopped, and marks unfinished tools', () => {
    const s = run([
      { method: 'RunBegin', params: { user_input: 'q' } },
      { method: 'TextDelta', params: { text: 'partial' } },
      { method: 'ToolCallBegin', params: { tool_call_id: 'a', name: 't', arguments: '{}' } },
      { method: 'RunEnd', params: { ...END, content: 'partial', stop_reason: 'cancelled' } },
    ]);
    const answer = only(s, 'answer')[0]!;
    expect([blockText(answer.text), answer.stopped, answer.streaming]).toEqual(['partial', true, false]);
    expect(only(s, 'tool')[0]!.status).toBe('cancelled');
    expect(only(s, 'run-end')[0]!.cancelled).toBe(true);
  });

  it('adopts a locally sent message at RunBegin instead of adding it twice', () => {
    let s = addUserMessage(createTimeline(), 'Hello');
    s = run([{ method: 'RunBegin', params: { user_input: 'Hello' } }, { method: 'TextDelta', params: { text: 'Hi' } }], s);
    expect(kinds(s)).toEqual(['user', 'answer']);
  });

  it('opens a run for events that arrive outside one, and adds no user row for an empty input', () => {
    const s = run([{ method: 'TextDelta', params: { text: 'x' } }]);
    expect(s.runOpen).toBe(true);
    expect(kinds(s)).toEqual(['answer']);
  });

  it('marks turn boundaries after the first turn and ends the open blocks there', () => {
    const s = run([
      { method: 'RunBegin', params: { user_input: 'q' } },
      { method: 'TurnBegin', params: { turn: 0 } },
      { method: 'TextDelta', params: { text: 'a' } },
      { method: 'TurnBegin', params: { turn: 1 } },
      { method: 'TextDelta', params: { text: 'b' } },
    ]);
    expect(kinds(s)).toEqual(['user', 'answer', 'turn', 'answer']);
    expect((s.items[1] as AnswerItem).streaming).toBe(false);
  });

  it('shows a RunEnd content that no delta streamed', () => {
    const s = run([
      { method: 'RunBegin', params: { user_input: 'q' } },
      { method: 'RunEnd', params: { ...END, content: 'whole answer' } },
    ]);
    expect(blockText(only(s, 'answer')[0]!.text)).toBe('whole answer');
  });

  it('reads token usage in OpenAI and input/output naming', () => {
    expect(summariseUsage({ prompt_tokens: 50, completion_tokens: 7, total_tokens: 57, extra: { a: 1 } })).toEqual({ input: 50, output: 7, total: 57 });
    expect(summariseUsage({ input_tokens: 3, output_tokens: 4 })).toEqual({ input: 3, output: 4, total: 7 });
    expect(summariseUsage(null)).toBeUndefined();
    expect(summariseUsage({ cost: 1 })).toBeUndefined();
  });

  it('records approvals asked before and after the card exists', () => {
    let s = setApproval(createTimeline(), 'a');
    s = run([{ method: 'ToolCallBegin', params: { tool_call_id: 'a', name: 't', arguments: '{}' } }], s);
    expect(only(s, 'tool')[0]!.status).toBe('awaiting-approval');
    s = setApproval(s, 'a', false);
    s = run([{ method: 'ToolResult', params: { tool_call_id: 'a', name: 't', content: 'denied', ok: false } }], s);
    expect(only(s, 'tool')[0]!.status).toBe('denied');
    s = run([{ method: 'ToolCallBegin', params: { tool_call_id: 'b', name: 't', arguments: '{}' } }], s);
    s = setApproval(setApproval(s, 'b'), 'b', true);
    expect(only(s, 'tool')[1]!.status).toBe('pending');
  });

  it('counts "Show more" on an answer or reasoning block, leaving the text and other items as they are', () => {
    let s = run([
      { method: 'RunBegin', params: { user_input: 'q' } },
      { method: 'ReasoningDelta', params: { text: 'think' } },
      { method: 'TextDelta', params: { text: 'long answer' } },
      { method: 'RunEnd', params: END },
    ]);
    const answer = only(s, 'answer')[0]!;
    const reasoning = only(s, 'reasoning')[0]!;
    const user = only(s, 'user')[0]!;
    s = showMore(showMore(s, answer.key), answer.key);
    s = showMore(s, reasoning.key);
    expect(only(s, 'answer')[0]!.more).toBe(2);
    expect(only(s, 'answer')[0]!.text).toBe(answer.text);
    expect(only(s, 'reasoning')[0]!.more).toBe(1);
    expect(showMore(s, user.key)).toBe(s);
    expect(showMore(s, 'no-such-key')).toBe(s);
  });

  it('ignores unknown events', () => {
    const s0 = createTimeline();
    expect(reduceTimeline(s0, { method: 'member_joined', params: {}, unknown: true })).toBe(s0);
  });

  it('does the same work per delta at the 10,000th delta as at the 100th', () => {
    let s = run([{ method: 'RunBegin', params: { user_input: 'q' } }]);
    const perDelta: number[] = [];
    for (let i = 1; i <= 10_000; i++) {
      const before = s.work;
      const prevItems = s.items;
      s = reduceTimeline(s, { method: 'TextDelta', params: { text: `t${i} ` } });
      expect(s.items).toBe(prevItems);
      perDelta.push(s.work - before);
    }
    expect(perDelta[9_999]).toBe(perDelta[99]);
    expect(Math.max(...perDelta.slice(1))).toBe(perDelta[99]);
    expect(only(s, 'answer')[0]!.text.chunks.length).toBe(10_000);
  });

  it('rebuilds a stored conversation with tool calls matched to their results', () => {
    const s = timelineFromMessages([
      { role: 'user', content: 'Weather?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: '18' },
      { role: 'assistant', content: 'It is 18 °C.' },
      { role: 'user', content: 'Thanks' },
      { role: 'assistant', content: 'You are welcome.', reasoning_content: 'polite' },
    ]);
    expect(kinds(s).filter((k) => k !== 'run-end')).toEqual(['user', 'tool', 'turn', 'answer', 'user', 'reasoning', 'answer']);
    expect(only(s, 'tool')[0]!.result).toBe('18');
    expect(only(s, 'answer').map((a) => blockText(a.text))).toEqual(['It is 18 °C.', 'You are welcome.']);
    expect(s.runOpen).toBe(false);
  });

  it('rebuilds a long stored run (thousands of tool steps after one user message) with one turn per step', () => {
    const steps = 3_000;
    const messages: ChatMessage[] = [{ role: 'user', content: 'Count files' }];
    for (let i = 0; i < steps; i++) {
      messages.push(
        { role: 'assistant', content: null, tool_calls: [{ id: `c${i}`, type: 'function', function: { name: 'ls', arguments: `{"n":${i}}` } }] },
        { role: 'tool', tool_call_id: `c${i}`, content: String(i) },
      );
    }
    messages.push({ role: 'assistant', content: 'Done.' }, { role: 'user', content: 'Thanks' }, { role: 'assistant', content: 'Welcome.' });
    const s = timelineFromMessages(messages);
    const turns = s.items.filter((i): i is Extract<TimelineItem, { kind: 'turn' }> => i.kind === 'turn');
    expect(turns.map((t) => t.turn)).toEqual(Array.from({ length: steps }, (_, i) => i + 1));
    const tools = only(s, 'tool');
    expect(tools).toHaveLength(steps);
    expect(tools.every((t, i) => t.status === 'ok' && t.result === String(i))).toBe(true);
    expect(only(s, 'answer').map((x) => blockText(x.text))).toEqual(['Done.', 'Welcome.']);
    expect(kinds(s).slice(-4)).toEqual(['run-end', 'user', 'answer', 'run-end']);
    expect(s.runOpen).toBe(false);
  });
});

describe('timeline over the corpus (projection)', () => {
  const cases = [
    ...readdirSync(new URL('pagent/', FIXTURES)).filter((f) => f.endsWith('.ndjson')).map((f) => `pagent/${f}`),
    ...readdirSync(new URL('pagentv4/', FIXTURES)).map((f) => `pagentv4/${f}`),
  ];
  it.each(cases)('%s: the last answer is the RunEnd content and every ToolCallBegin has a card', async (path) => {
    const events = await decodeFixture(path);
    const s = run(events);
    const runEnd = events.findLast((e) => e.method === 'RunEnd');
    if (runEnd?.method !== 'RunEnd') throw new Error('no RunEnd');
    const answers = only(s, 'answer');
    expect(blockText(answers[answers.length - 1]!.text)).toBe(runEnd.params.content);
    const calls = events.filter((e) => e.method === 'ToolCallBegin');
    const results = events.filter((e) => e.method === 'ToolResult');
    const tools = only(s, 'tool');
    expect(tools.map((t) => t.callId)).toEqual(calls.map((c) => (c.method === 'ToolCallBegin' ? c.params.tool_call_id : '')));
    expect(tools.filter((t) => t.status === 'failed').length).toBe(results.filter((r) => r.method === 'ToolResult' && r.params.ok === false).length);
    expect(tools.filter((t) => t.status === 'ok').length).toBe(results.filter((r) => r.method === 'ToolResult' && r.params.ok !== false).length);
    expect(s.runOpen).toBe(false);
  });

  it('victor sse example: text, reasoning and one ok shell card', async () => {
    const s = run(await decodeFixture('victor/docs_api_reference_sse_example.ndjson'));
    expect(only(s, 'answer').map((a) => blockText(a.text))).toEqual(['The failure is caused by…']);
    expect(only(s, 'reasoning').map((a) => blockText(a.text))).toEqual(['…']);
    const tools = only(s, 'tool') as ToolItem[];
    expect(tools.map((t) => [t.name, t.status, t.result])).toEqual([['shell', 'ok', '1 failed…']]);
    expect(tools[0]!.prettyArguments).toBe('{\n  "cmd": "pytest -x"\n}');
  });
});

describe('questions of the agent', () => {
  const asked = { id: 'i1', reason: 'input_required', message: 'Who are you?' };

  it('a question ends the answer block in flight: what the agent says after it starts a new block below it', () => {
    let s = run([
      { method: 'RunBegin', params: { user_input: 'ask me' } },
      { method: 'TextDelta', params: { text: 'First I need to know.' } },
    ]);
    s = addQuestion(s, asked);
    s = run([{ method: 'TextDelta', params: { text: 'Thanks.' } }], s);
    expect(kinds(s)).toEqual(['user', 'answer', 'question', 'answer']);
    expect(only(s, 'answer').map((a) => [blockText(a.text), a.streaming])).toEqual([
      ['First I need to know.', false],
      ['Thanks.', true],
    ]);
    expect(only(s, 'question')[0]).toMatchObject({ question: asked, status: 'asked', run: 1 });
  });

  it('records how a question ended, and leaves another conversation alone', () => {
    const s = addQuestion(run([{ method: 'RunBegin', params: { user_input: 'ask me' } }]), asked);
    const key = s.items.at(-1)!.key;
    const answered = settleQuestion(s, key, 'answered', { name: 'Ada' });
    expect(only(answered, 'question')[0]).toMatchObject({ status: 'answered', answer: { name: 'Ada' } });
    const other = createTimeline();
    expect(settleQuestion(other, key, 'cancelled')).toBe(other);
  });
});
