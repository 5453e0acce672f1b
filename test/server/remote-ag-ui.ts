/**
 * An AG-UI agent as a server built on the protocol's own packages writes one: every request is parsed
 * with `@ag-ui/core`'s `RunAgentInputSchema` (a request it refuses gets a 400 and is counted) and every
 * event is validated by `EventSchema` and framed by `@ag-ui/encoder`. Its script reads the input:
 * - "weather in <city>": a server tool call, its result and the answer, in one run;
 * - "where am i": calls `get_location` when the page offered that tool (the page runs it), and answers
 *   "You are in <result>." when the next input carries the result;
 * - "delete <path>": proposes `delete_file` and interrupts (`tool_call`) for approval; the resume runs it
 *   (`{approved: true}`) or not; "confirm": a `confirmation` interrupt; "ask me": an `input_required`
 *   interrupt with a form schema; "ask for an address": an `input_required` interrupt whose schema nests an
 *   object (the resume is answered "Got <payload as JSON>."); "expired": an interrupt that expired an hour ago;
 * - "count": a `STATE_SNAPSHOT` of the input state's `count` + 1 then a `STATE_DELTA`; "bad patch": a
 *   delta that cannot apply; "snapshot": a `MESSAGES_SNAPSHOT` that drops the conversation's first turn;
 * - "slow": a slow answer;
 * - anything else: `Heard "<text>". Earlier: <earlier user texts>; answers: <n>; tool results: <n>.`
 * A thread with open interrupts refuses input that does not resume them (a `RUN_ERROR`), as the spec says.
 */
import { RunAgentInputSchema } from '@ag-ui/core/schemas';
import { agUiSse, type AgUiEvent } from '../helpers/ag-ui-producer.js';

/** One request the agent received. */
export interface AgUiRequestLog {
  body: unknown;
  valid: boolean;
  error?: string;
}

export const agUiLogs = new Map<string, AgUiRequestLog[]>();

interface OpenInterrupt {
  id: string;
  reason: string;
  toolCallId?: string;
  path?: string;
  /** Answered with the payload as JSON. */
  echo?: boolean;
}

/** Interrupts each thread waits on, as a checkpointing framework keeps them. */
const pending = new Map<string, OpenInterrupt[]>();

type Message = { id: string; role: string; content?: unknown; toolCalls?: unknown[]; toolCallId?: string };

const textOf = (content: unknown): string =>
  typeof content === 'string' ? content : Array.isArray(content) ? content.map((p: { type?: string; text?: string }) => (p.type === 'text' ? (p.text ?? '') : '')).join('') : '';

/** The events of one run, between `RUN_STARTED` and `RUN_FINISHED` / `RUN_ERROR`. */
function runEvents(input: ReturnType<typeof RunAgentInputSchema.parse>): { events: AgUiEvent[]; delayMs?: number } {
  const { threadId, runId } = input;
  const messages = input.messages as Message[];
  const started: AgUiEvent = { type: 'RUN_STARTED', threadId, runId };
  const finished = (extra: Record<string, unknown> = {}): AgUiEvent => ({ type: 'RUN_FINISHED', threadId, runId, ...extra });
  const say = (id: string, ...deltas: string[]): AgUiEvent[] => [
    { type: 'TEXT_MESSAGE_START', messageId: id, role: 'assistant' },
    ...deltas.map((delta): AgUiEvent => ({ type: 'TEXT_MESSAGE_CONTENT', messageId: id, delta })),
    { type: 'TEXT_MESSAGE_END', messageId: id },
  ];
  const callTool = (id: string, name: string, args: unknown, parent?: string): AgUiEvent[] => [
    { type: 'TOOL_CALL_START', toolCallId: id, toolCallName: name, ...(parent ? { parentMessageId: parent } : {}) },
    { type: 'TOOL_CALL_ARGS', toolCallId: id, delta: JSON.stringify(args) },
    { type: 'TOOL_CALL_END', toolCallId: id },
  ];
  const open = pending.get(threadId) ?? [];
  const resume = input.resume ?? [];
  if (open.length > 0) {
    const answered = new Set(resume.map((r) => r.interruptId));
    if (open.some((i) => !answered.has(i.id))) {
      return { events: [started, { type: 'RUN_ERROR', message: `Thread ${threadId} has open interrupts: resume them first` }] };
    }
    pending.delete(threadId);
    const events: AgUiEvent[] = [started];
    for (const entry of resume) {
      const interrupt = open.find((i) => i.id === entry.interruptId)!;
      const payload = entry.payload as Record<string, unknown> | boolean | undefined;
      if (interrupt.reason === 'tool_call') {
        const approved = entry.status === 'resolved' && typeof payload === 'object' && payload !== null && payload['approved'] === true;
        events.push({ type: 'TOOL_CALL_RESULT', messageId: `${runId}-r`, toolCallId: interrupt.toolCallId!, content: approved ? `deleted ${interrupt.path}` : 'denied by the user' });
        events.push(...say(`${runId}-m`, approved ? `Deleted ${interrupt.path}.` : 'Not deleted.'));
      } else if (interrupt.reason === 'confirmation') {
        events.push(...say(`${runId}-m`, entry.status === 'cancelled' ? 'No answer.' : payload === true ? 'Confirmed.' : 'Not confirmed.'));
      } else if (entry.status === 'cancelled') {
        events.push(...say(`${runId}-m`, 'Cancelled.'));
      } else if (interrupt.echo) {
        events.push(...say(`${runId}-m`, `Got ${JSON.stringify(payload)}.`));
      } else {
        const p = payload as Record<string, unknown>;
        events.push(...say(`${runId}-m`, `Thanks, ${String(p['name'])} (${String(p['age'])}, ${String(p['color'])}, subscribed: ${String(p['subscribe'])}).`));
      }
    }
    events.push(finished({ outcome: { type: 'success' } }));
    return { events };
  }

  const last = messages.at(-1);
  if (last?.role === 'tool') return { events: [started, ...say(`${runId}-m`, `You are in ${textOf(last.content)}.`), finished()] };
  const users = messages.filter((m) => m.role === 'user');
  const said = textOf(last?.role === 'user' ? last.content : '');
  const weather = /weather in (\w+)/i.exec(said);
  if (weather) {
    const id = `${runId}-w`;
    return {
      events: [
        started,
        ...say(`${runId}-a`, 'Checking.'),
        ...callTool(id, 'get_weather', { city: weather[1] }, `${runId}-a`),
        { type: 'TOOL_CALL_RESULT', messageId: `${runId}-r`, toolCallId: id, content: JSON.stringify({ city: weather[1], celsius: 18 }) },
        ...say(`${runId}-b`, `It is 18 °C in ${weather[1]}.`),
        finished(),
      ],
    };
  }
  if (/where am i/i.test(said)) {
    if (!input.tools.some((t) => t.name === 'get_location')) return { events: [started, ...say(`${runId}-m`, 'I cannot locate you.'), finished()] };
    const id = `${runId}-loc`;
    return { events: [started, ...callTool(id, 'get_location', {}), finished({ outcome: { type: 'success', pendingToolCallIds: [id] } })] };
  }
  const remove = /delete (\S+)/i.exec(said);
  if (remove) {
    const id = `${runId}-del`;
    const interrupt = { id: `${runId}-int`, reason: 'tool_call', toolCallId: id, path: remove[1] };
    pending.set(threadId, [interrupt]);
    const schema = { type: 'object', properties: { approved: { type: 'boolean' } }, required: ['approved'] };
    return {
      events: [
        started,
        ...callTool(id, 'delete_file', { path: remove[1] }),
        finished({ outcome: { type: 'interrupt', interrupts: [{ id: interrupt.id, reason: 'tool_call', toolCallId: id, message: `Delete ${remove[1]}?`, responseSchema: schema }] } }),
      ],
    };
  }
  if (/confirm/i.test(said)) {
    pending.set(threadId, [{ id: `${runId}-int`, reason: 'confirmation' }]);
    return { events: [started, finished({ outcome: { type: 'interrupt', interrupts: [{ id: `${runId}-int`, reason: 'confirmation', message: 'Proceed?' }] } })] };
  }
  if (/ask me/i.test(said)) {
    pending.set(threadId, [{ id: `${runId}-int`, reason: 'input_required' }]);
    const responseSchema = {
      type: 'object',
      properties: {
        name: { type: 'string', title: 'Name' },
        age: { type: 'number', title: 'Age' },
        color: { type: 'string', enum: ['red', 'green', 'blue'], title: 'Colour' },
        subscribe: { type: 'boolean', title: 'Subscribe' },
      },
      required: ['name'],
    };
    return { events: [started, finished({ outcome: { type: 'interrupt', interrupts: [{ id: `${runId}-int`, reason: 'input_required', message: 'Who are you?', responseSchema }] } })] };
  }
  if (/ask for an address/i.test(said)) {
    pending.set(threadId, [{ id: `${runId}-int`, reason: 'input_required', echo: true }]);
    const responseSchema = {
      type: 'object',
      properties: { name: { type: 'string' }, address: { type: 'object', properties: { city: { type: 'string' } } } },
    };
    return { events: [started, finished({ outcome: { type: 'interrupt', interrupts: [{ id: `${runId}-int`, reason: 'input_required', message: 'Where do you live?', responseSchema }] } })] };
  }
  if (/expired/i.test(said)) {
    pending.set(threadId, [{ id: `${runId}-int`, reason: 'confirmation' }]);
    const expiresAt = new Date(Date.now() - 3_600_000).toISOString();
    return { events: [started, finished({ outcome: { type: 'interrupt', interrupts: [{ id: `${runId}-int`, reason: 'confirmation', message: 'Too late?', expiresAt }] } })] };
  }
  if (/bad patch/i.test(said)) {
    return { events: [started, { type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/missing/deep', value: 1 }] }, ...say(`${runId}-m`, 'Patched.'), finished()] };
  }
  if (/count/i.test(said)) {
    const state = (input.state ?? {}) as { count?: number };
    const count = (state.count ?? 0) + 1;
    return {
      events: [
        started,
        { type: 'STATE_SNAPSHOT', snapshot: { ...state, count } },
        { type: 'STATE_DELTA', delta: [{ op: 'add', path: '/last', value: said }] },
        ...say(`${runId}-m`, `Count is ${count}.`),
        finished(),
      ],
    };
  }
  if (/snapshot/i.test(said)) {
    const kept = messages.slice(2);
    return {
      events: [
        started,
        ...say(`${runId}-m`, 'Trimmed.'),
        { type: 'MESSAGES_SNAPSHOT', messages: [...kept, { id: `${runId}-m`, role: 'assistant', content: 'Trimmed.' }] },
        finished(),
      ],
    };
  }
  if (/slow/i.test(said)) return { events: [started, ...say(`${runId}-m`, 'Slow ', 'answer ', 'that ', 'takes ', 'a ', 'good ', 'long ', 'while ', 'to ', 'come ', 'to ', 'its ', 'end.'), finished()], delayMs: 150 };
  const earlier = users.slice(0, -1).map((m) => textOf(m.content));
  const answers = messages.filter((m) => m.role === 'assistant').length;
  const results = messages.filter((m) => m.role === 'tool').length;
  return {
    events: [started, ...say(`${runId}-m`, `Heard "${said}". `, `Earlier: ${earlier.join(' | ') || 'nothing'}; answers: ${answers}; tool results: ${results}.`), finished()],
  };
}

/** The agent's endpoint: the request body (JSON text) in, the status and SSE messages out. */
export function agUiAgent(bodyText: string): { status: number; body: string | string[]; delayMs?: number } {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    return { status: 400, body: 'Request body is not JSON' };
  }
  const thread = typeof (body as { threadId?: unknown }).threadId === 'string' ? (body as { threadId: string }).threadId : '(none)';
  const log: AgUiRequestLog = { body, valid: false };
  agUiLogs.set(thread, [...(agUiLogs.get(thread) ?? []), log]);
  const parsed = RunAgentInputSchema.safeParse(body);
  if (!parsed.success) {
    log.error = parsed.error.message;
    return { status: 400, body: JSON.stringify({ error: `Invalid RunAgentInput: ${parsed.error.message}` }) };
  }
  log.valid = true;
  const { events, delayMs } = runEvents(parsed.data);
  const frames = events.map((event) => agUiSse([event]));
  return delayMs === undefined ? { status: 200, body: frames.join('') } : { status: 200, body: frames, delayMs };
}
