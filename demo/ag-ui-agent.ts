/**
 * The demo's AG-UI back end: an agent endpoint written on the protocol's own packages — every request
 * parsed with `@ag-ui/core`'s `RunAgentInputSchema`, every event checked by `EventSchema` and framed by
 * `@ag-ui/encoder` — playing the demo's script (demo/scripted-model.ts). `get_weather` and `clock` run on
 * the server; `create_reminder` interrupts the run for the user's approval and runs on resume; tools the
 * page offers (`region`) are called for the page to run; "book a table" asks for a form (an
 * `input_required` interrupt); the shared state counts the runs of the thread.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { EventType, type BaseEvent } from '@ag-ui/core';
import { EventSchema, RunAgentInputSchema } from '@ag-ui/core/schemas';
import { EventEncoder } from '@ag-ui/encoder';
import { clock } from '../src/index.js';
import { languageOf, pieces, scriptedStep } from './scripted-model.js';
import { demoTools } from './tools.js';

type Input = ReturnType<typeof RunAgentInputSchema.parse>;
type Event = { type: `${EventType}` } & Record<string, unknown>;
type Msg = { role: string; content?: unknown; tool_calls?: Array<{ function: { name: string } }> };

const SERVER_TOOLS = new Map([...demoTools, clock].map((t) => [t.name, t]));

/** The interrupt each thread waits on (a checkpointing framework keeps it in its store). */
const waiting = new Map<string, { id: string; kind: 'approval'; callId: string; args: Record<string, unknown> } | { id: string; kind: 'booking' }>();

const BOOK = /book a table|订.*桌|予約/i;
const booked = {
  en: (p: Record<string, unknown>) => `Booked: a table for **${String(p['people'] ?? 2)}** at **${String(p['time'] ?? '19:00')}**, under the name *${String(p['name'])}*${p['vegetarian'] ? ', vegetarian menu' : ''}.`,
  zh: (p: Record<string, unknown>) => `已预订：**${String(p['time'] ?? '19:00')}** 的 **${String(p['people'] ?? 2)}** 人桌，预订人 *${String(p['name'])}*${p['vegetarian'] ? '，素食菜单' : ''}。`,
  ja: (p: Record<string, unknown>) => `予約しました：**${String(p['time'] ?? '19:00')}** に **${String(p['people'] ?? 2)}** 名、お名前 *${String(p['name'])}*${p['vegetarian'] ? '、ベジタリアンメニュー' : ''}。`,
};
const bookingCancelled = { en: 'No booking made.', zh: '没有预订。', ja: '予約しませんでした。' };
const bookingQuestion = { en: 'Who is the table for?', zh: '这张桌子订给谁？', ja: 'どなたのご予約ですか？' };

const textOf = (content: unknown): string =>
  typeof content === 'string' ? content : Array.isArray(content) ? content.map((p: { type?: string; text?: string }) => (p.type === 'text' ? (p.text ?? '') : '')).join('') : '';

/** AG-UI messages in the shape the demo's script reads. */
function scriptMessages(messages: Input['messages']): Msg[] {
  return messages.flatMap((m): Msg[] => {
    if (m.role === 'assistant') return [{ role: 'assistant', content: m.content ?? '', tool_calls: (m.toolCalls ?? []).map((c) => ({ function: { name: c.function.name } })) }];
    if (m.role === 'tool') return [{ role: 'tool', content: textOf(m.content) }];
    if (m.role === 'user') return [{ role: 'user', content: textOf(m.content) }];
    return [];
  });
}

async function* run(input: Input): AsyncGenerator<Event> {
  const { threadId, runId } = input;
  let n = 0;
  const id = (): string => `${runId}-${++n}`;
  const messages = scriptMessages(input.messages);
  const say = async function* (text: string): AsyncGenerator<Event> {
    const messageId = id();
    yield { type: 'TEXT_MESSAGE_START', messageId, role: 'assistant' };
    for (const delta of pieces(text)) yield { type: 'TEXT_MESSAGE_CONTENT', messageId, delta };
    yield { type: 'TEXT_MESSAGE_END', messageId };
  };
  const lang = languageOf(textOf(input.messages.filter((m) => m.role === 'user').at(-1)?.content));
  yield { type: 'RUN_STARTED', threadId, runId };
  const runs = (((input.state ?? {}) as { runs?: number }).runs ?? 0) + 1;
  yield { type: 'STATE_DELTA', delta: [{ op: 'add', path: '/runs', value: runs }] };

  const open = waiting.get(threadId);
  waiting.delete(threadId);
  const answer = open && input.resume?.find((r) => r.interruptId === open.id);
  if (open?.kind === 'booking') {
    const payload = answer?.status === 'resolved' ? (answer.payload as Record<string, unknown>) : undefined;
    yield* say(payload ? booked[lang](payload) : bookingCancelled[lang]);
    yield { type: 'RUN_FINISHED', threadId, runId, outcome: { type: 'success' } };
    return;
  }
  if (open?.kind === 'approval') {
    const approved = answer?.status === 'resolved' && (answer.payload as { approved?: unknown } | undefined)?.approved === true;
    const result = approved ? await SERVER_TOOLS.get('create_reminder')!.execute(open.args as never, { signal: new AbortController().signal, tool_call_id: open.callId }) : 'create_reminder error: denied by the user';
    yield { type: 'TOOL_CALL_RESULT', messageId: id(), toolCallId: open.callId, content: String(result) };
    messages.push({ role: 'assistant', tool_calls: [{ function: { name: 'create_reminder' } }] }, { role: 'tool', content: String(result) });
  } else if (BOOK.test(textOf(messages.filter((m) => m.role === 'user').at(-1)?.content))) {
    const interruptId = id();
    waiting.set(threadId, { id: interruptId, kind: 'booking' });
    const responseSchema = {
      type: 'object',
      properties: {
        name: { type: 'string', title: 'Name' },
        people: { type: 'integer', title: 'People', minimum: 1, maximum: 12 },
        time: { type: 'string', title: 'Time', enum: ['18:00', '19:00', '20:30'] },
        vegetarian: { type: 'boolean', title: 'Vegetarian menu' },
      },
      required: ['name', 'people', 'time'],
    };
    yield { type: 'RUN_FINISHED', threadId, runId, outcome: { type: 'interrupt', interrupts: [{ id: interruptId, reason: 'input_required', message: bookingQuestion[lang], responseSchema }] } };
    return;
  }

  const offered = input.tools.map((t) => t.name);
  for (let turn = 0; turn < 5; turn++) {
    const step = scriptedStep(messages, [...SERVER_TOOLS.keys(), ...offered]);
    if (step.kind === 'error') {
      yield* say(step.text);
      yield { type: 'RUN_ERROR', message: step.message };
      return;
    }
    if (step.kind === 'text') {
      if (step.reasoning) {
        const messageId = id();
        yield { type: 'REASONING_START', messageId };
        yield { type: 'REASONING_MESSAGE_START', messageId, role: 'reasoning' };
        for (const delta of pieces(step.reasoning)) yield { type: 'REASONING_MESSAGE_CONTENT', messageId, delta };
        yield { type: 'REASONING_MESSAGE_END', messageId };
        yield { type: 'REASONING_END', messageId };
      }
      yield* say(step.text);
      yield { type: 'RUN_FINISHED', threadId, runId, outcome: { type: 'success' } };
      return;
    }
    const callId = id();
    yield { type: 'TOOL_CALL_START', toolCallId: callId, toolCallName: step.name };
    yield { type: 'TOOL_CALL_ARGS', toolCallId: callId, delta: JSON.stringify(step.args) };
    yield { type: 'TOOL_CALL_END', toolCallId: callId };
    if (step.name === 'create_reminder') {
      const interruptId = id();
      waiting.set(threadId, { id: interruptId, kind: 'approval', callId, args: step.args });
      const responseSchema = { type: 'object', properties: { approved: { type: 'boolean' } }, required: ['approved'] };
      yield { type: 'RUN_FINISHED', threadId, runId, outcome: { type: 'interrupt', interrupts: [{ id: interruptId, reason: 'tool_call', toolCallId: callId, responseSchema }] } };
      return;
    }
    const serverTool = SERVER_TOOLS.get(step.name);
    if (!serverTool) {
      // a tool of the page: the page runs it and sends the result with its next request
      yield { type: 'RUN_FINISHED', threadId, runId, outcome: { type: 'success', pendingToolCallIds: [callId] } };
      return;
    }
    const result = await serverTool.execute(step.args as never, { signal: new AbortController().signal, tool_call_id: callId });
    yield { type: 'TOOL_CALL_RESULT', messageId: id(), toolCallId: callId, content: String(result) };
    messages.push({ role: 'assistant', tool_calls: [{ function: { name: step.name } }] }, { role: 'tool', content: String(result) });
  }
  yield { type: 'RUN_FINISHED', threadId, runId };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** `POST /demo/api/ag-ui`: the agent endpoint. */
export async function handleAgUi(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  let input: Input;
  try {
    input = RunAgentInputSchema.parse(JSON.parse(Buffer.concat(chunks).toString('utf8')));
  } catch (err) {
    res.writeHead(400, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: `Invalid RunAgentInput: ${err instanceof Error ? err.message : String(err)}` }));
    return;
  }
  let closed = false;
  res.on('close', () => (closed = true));
  const encoder = new EventEncoder();
  res.writeHead(200, { 'Content-Type': encoder.getContentType(), 'Cache-Control': 'no-store' });
  for await (const event of run(input)) {
    if (closed) return;
    res.write(encoder.encodeSSE(EventSchema.parse(event) as BaseEvent));
    await sleep(25);
  }
  res.end();
}
