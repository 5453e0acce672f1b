/**
 * An AI SDK chat route as a Next.js app writes one: `validateUIMessages` → `convertToModelMessages` →
 * `streamText` → `toUIMessageStreamResponse`, over `ai/test`'s mock model. The model's script reads the
 * conversation it is given, so a test sees what the route's model saw:
 * - "weather in <city>" calls the server tool `get_weather`, then answers with its result;
 * - "where am i" calls `get_location`, a tool the route declares without `execute` (the page runs it);
 * - "delete <path>" calls `delete_file`, which needs the user's approval before the route runs it;
 * - "slow" streams its answer slowly; "[reject]" makes the route answer 400; "[reject once]" answers 400 to
 *   the first request of its chat that carries it, and as usual afterwards (a cause that goes away);
 * - anything else: `Heard "<text>". Earlier: <earlier user texts>; answers: <n>; files: <types>.`
 * Every request is logged per chat id with whether it passed the SDK's validation.
 *
 * Its streams are resumable, as the AI SDK's resume recipe makes them (`consumeSseStream` into a store of
 * streams, here an in-memory one): the generation goes on when the client goes, and
 * `GET /remote/ai-sdk/<id>/stream` ({@link aiSdkResume}) gives the chat's stream in flight from its start,
 * or 204 when there is none.
 */
import { convertToModelMessages, jsonSchema, simulateReadableStream, stepCountIs, streamText, tool, validateUIMessages, type ModelMessage } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { UI_MESSAGE_STREAM_HEADERS } from 'ai';
import { ResumableStreams } from './resumable-streams.js';

/** The route's resumable streams (what Redis holds in the recipe). */
export const aiSdkStreams = new ResumableStreams();

type StreamPart = Awaited<ReturnType<MockLanguageModelV3['doStream']>>['stream'] extends ReadableStream<infer P> ? P : never;
type Prompt = Parameters<MockLanguageModelV3['doStream']>[0]['prompt'];

/** One request the route received. */
export interface AiSdkRequestLog {
  body: Record<string, unknown>;
  valid: boolean;
  error?: string;
  /** The model messages the route's model was given, one list per model call. */
  prompts: Prompt[];
}

export const aiSdkLogs = new Map<string, AiSdkRequestLog[]>();

/** Chats whose "[reject once]" was refused already. */
const rejectedOnce = new Set<string>();

export const routeTools = {
  get_weather: tool({
    description: 'The weather in a city',
    inputSchema: jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }),
    outputSchema: jsonSchema<{ city: string; celsius: number }>({
      type: 'object',
      properties: { city: { type: 'string' }, celsius: { type: 'number' } },
      required: ['city', 'celsius'],
    }),
    execute: async ({ city }) => ({ city, celsius: 18 }),
  }),
  get_location: tool({
    description: "The user's location (the page knows it)",
    inputSchema: jsonSchema<Record<string, never>>({ type: 'object', properties: {} }),
  }),
  delete_file: tool({
    description: 'Deletes a file',
    inputSchema: jsonSchema<{ path: string }>({ type: 'object', properties: { path: { type: 'string' } }, required: ['path'] }),
    needsApproval: true,
    execute: async ({ path }) => `deleted ${path}`,
  }),
};

const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };
const finish = (unified: 'stop' | 'tool-calls'): StreamPart => ({ type: 'finish', finishReason: { unified, raw: unified }, usage });
const text = (...deltas: string[]): StreamPart[] => [
  { type: 'text-start', id: 't' },
  ...deltas.map((delta): StreamPart => ({ type: 'text-delta', id: 't', delta })),
  { type: 'text-end', id: 't' },
];
const call = (toolCallId: string, toolName: string, input: unknown): StreamPart => ({ type: 'tool-call', toolCallId, toolName, input: JSON.stringify(input) });

const textOf = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content.map((part: { type?: string; text?: string }) => (part.type === 'text' ? (part.text ?? '') : '')).join('')
      : '';

/** The model's next step, from the conversation it is given. */
function script(prompt: Prompt, callNumber: number): { parts: StreamPart[]; delay?: number } {
  const last = prompt.at(-1);
  if (last?.role === 'tool') {
    const said = last.content.map((part) => {
      if (part.type !== 'tool-result') return '';
      const output = part.output;
      if (output.type === 'execution-denied') return `${part.toolName} was denied`;
      const value = 'value' in output ? output.value : undefined;
      if (part.toolName === 'get_weather') return `It is ${(value as { celsius?: number }).celsius} °C in ${(value as { city?: string }).city}`;
      if (part.toolName === 'get_location') return `You are in ${typeof value === 'string' ? value : JSON.stringify(value)}`;
      return `${part.toolName}: ${typeof value === 'string' ? value : JSON.stringify(value)}`;
    });
    return { parts: [...text(said.join('; ') + '.'), finish('stop')] };
  }
  const users = prompt.filter((m) => m.role === 'user');
  const said = textOf(users.at(-1)?.content);
  const id = `call-${callNumber}-${users.length}`;
  const weather = /weather in (\w+)/i.exec(said);
  if (weather) return { parts: [...text('Checking.'), call(id, 'get_weather', { city: weather[1] }), finish('tool-calls')] };
  if (/where am i/i.test(said)) return { parts: [call(id, 'get_location', {}), finish('tool-calls')] };
  const remove = /delete (\S+)/i.exec(said);
  if (remove) return { parts: [call(id, 'delete_file', { path: remove[1] }), finish('tool-calls')] };
  if (/slow/i.test(said)) return { parts: [...text('Slow ', 'answer ', 'that ', 'takes ', 'a ', 'good ', 'long ', 'while ', 'to ', 'come ', 'to ', 'its ', 'end.'), finish('stop')], delay: 150 };
  if (/long story/i.test(said)) return { parts: [...text(...Array.from({ length: 40 }, (_, i) => `part${i} `)), finish('stop')], delay: 25 };
  const earlier = users.slice(0, -1).map((m) => textOf(m.content));
  const answers = prompt.filter((m) => m.role === 'assistant').length;
  const files = (Array.isArray(users.at(-1)?.content) ? (users.at(-1)!.content as Array<{ type: string; mediaType?: string }>) : [])
    .filter((part) => part.type === 'file' || part.type === 'image')
    .map((part) => part.mediaType ?? part.type);
  return {
    parts: [...text(`Heard "${said}". `, `Earlier: ${earlier.join(' | ') || 'nothing'}; answers: ${answers}; files: ${files.join(', ') || 'none'}.`), finish('stop')],
  };
}

/** The route: a Fetch `Request` in, the UI message stream `Response` out. */
export async function aiSdkRoute(request: Request): Promise<Response> {
  const body = (await request.json()) as Record<string, unknown>;
  const id = typeof body['id'] === 'string' ? body['id'] : '(none)';
  const log: AiSdkRequestLog = { body, valid: false, prompts: [] };
  aiSdkLogs.set(id, [...(aiSdkLogs.get(id) ?? []), log]);
  let messages: ModelMessage[];
  try {
    const validated = await validateUIMessages({ messages: body['messages'], tools: routeTools as never });
    messages = await convertToModelMessages(validated, { tools: routeTools });
    log.valid = true;
  } catch (err) {
    log.error = err instanceof Error ? err.message : String(err);
    return Response.json({ error: `Invalid request: ${log.error}` }, { status: 400 });
  }
  const lastUser = messages.filter((m) => m.role === 'user').at(-1);
  if (textOf(lastUser?.content).includes('[reject]')) return Response.json({ error: 'The back end rejected this message' }, { status: 400 });
  if (textOf(lastUser?.content).includes('[reject once]') && !rejectedOnce.has(id)) {
    rejectedOnce.add(id);
    return Response.json({ error: 'The back end is busy: send it again' }, { status: 400 });
  }
  let calls = 0;
  const model = new MockLanguageModelV3({
    doStream: async ({ prompt }) => {
      log.prompts.push(prompt);
      const { parts, delay } = script(prompt, calls++);
      return { stream: simulateReadableStream({ chunks: parts, chunkDelayInMs: delay ?? null }) };
    },
  });
  // no abortSignal: the generation goes on when the client goes, into the resumable stream
  const result = streamText({ model, messages, tools: routeTools, stopWhen: stepCountIs(5) });
  return result.toUIMessageStreamResponse({
    originalMessages: body['messages'] as never,
    onError: (error) => (error instanceof Error ? error.message : String(error)),
    consumeSseStream: ({ stream }) => aiSdkStreams.createNewResumableStream(id, crypto.randomUUID(), stream),
  });
}

/** `GET <route>/<id>/stream`: the chat's stream in flight, from its start, or 204 when there is none. */
export function aiSdkResume(id: string): Response {
  const stream = aiSdkStreams.resumeExistingStream(id);
  if (!stream) return new Response(null, { status: 204 });
  return new Response(stream.pipeThrough(new TextEncoderStream()), { headers: UI_MESSAGE_STREAM_HEADERS });
}
