/**
 * The demo's AI SDK back end: a chat route written as a Next.js app writes one — `validateUIMessages`,
 * `convertToModelMessages`, `streamText`, `toUIMessageStreamResponse` — with the `ai` package's own mock
 * model playing the demo's script (demo/scripted-model.ts), so it runs with no key and no network.
 * `get_weather` and `clock` run on the server; `create_reminder` runs there once the user approved it;
 * `region` is declared without `execute`: the page runs it (the browser knows its locale and time zone).
 */
import { convertToModelMessages, jsonSchema, simulateReadableStream, stepCountIs, streamText, tool, validateUIMessages, type ModelMessage } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { clock } from '../src/index.js';
import { pieces, scriptedStep } from './scripted-model.js';
import { demoTools } from './tools.js';

type StreamPart = Awaited<ReturnType<MockLanguageModelV3['doStream']>>['stream'] extends ReadableStream<infer P> ? P : never;
type Prompt = Parameters<MockLanguageModelV3['doStream']>[0]['prompt'];

const weather = demoTools.find((t) => t.name === 'get_weather')!;
const reminder = demoTools.find((t) => t.name === 'create_reminder')!;

/** The route's tools: the demo's own, as AI SDK tools. */
const tools = {
  get_weather: tool({
    description: weather.description,
    inputSchema: jsonSchema<{ city: string; unit?: string }>(weather.parameters),
    execute: async (args) => weather.execute(args as never, { signal: new AbortController().signal, tool_call_id: '' }),
  }),
  clock: tool({
    description: clock.description,
    inputSchema: jsonSchema<Record<string, never>>(clock.parameters),
    execute: async () => clock.execute({} as never, { signal: new AbortController().signal, tool_call_id: '' }),
  }),
  create_reminder: tool({
    description: reminder.description,
    inputSchema: jsonSchema<{ text: string; in_minutes: number }>(reminder.parameters),
    needsApproval: true,
    execute: async (args) => reminder.execute(args as never, { signal: new AbortController().signal, tool_call_id: '' }),
  }),
  region: tool({
    description: "The user's locale and time zone (the page answers)",
    inputSchema: jsonSchema<Record<string, never>>({ type: 'object', properties: {} }),
  }),
};

const textOf = (content: unknown): string =>
  typeof content === 'string' ? content : Array.isArray(content) ? content.map((p: { type?: string; text?: string }) => (p.type === 'text' ? (p.text ?? '') : '')).join('') : '';

/** The model's prompt in the shape the demo's script reads (OpenAI-style messages). */
function scriptMessages(prompt: Prompt): Array<{ role: string; content?: unknown; tool_calls?: Array<{ function: { name: string } }> }> {
  return prompt.map((m) => {
    if (m.role === 'assistant') {
      const calls = m.content.filter((p) => p.type === 'tool-call').map((p) => ({ function: { name: p.toolName } }));
      return { role: 'assistant', content: textOf(m.content), tool_calls: calls };
    }
    if (m.role === 'tool') {
      const result = m.content.find((p) => p.type === 'tool-result');
      const output = result?.output;
      const value = !output ? '' : output.type === 'execution-denied' ? 'denied by the user' : 'value' in output ? output.value : '';
      return { role: 'tool', content: typeof value === 'string' ? value : JSON.stringify(value) };
    }
    return { role: m.role, content: textOf(m.content) };
  });
}

/** One model call of the demo's script, as the language model's stream parts. */
function modelParts(prompt: Prompt, call: number): StreamPart[] {
  const step = scriptedStep(scriptMessages(prompt), Object.keys(tools));
  const usage = { inputTokens: { total: 42, noCache: 42, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 17, text: 17, reasoning: 0 } };
  const text = (id: string, value: string): StreamPart[] => [
    { type: 'text-start', id },
    ...pieces(value).map((delta): StreamPart => ({ type: 'text-delta', id, delta })),
    { type: 'text-end', id },
  ];
  if (step.kind === 'tool') {
    return [
      { type: 'tool-call', toolCallId: `call_demo_${Date.now()}_${call}`, toolName: step.name, input: JSON.stringify(step.args) },
      { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage },
    ];
  }
  if (step.kind === 'error') return [...text('t', step.text), { type: 'error', error: new Error(step.message) }];
  const reasoning: StreamPart[] = step.reasoning
    ? [{ type: 'reasoning-start', id: 'r' }, ...pieces(step.reasoning).map((delta): StreamPart => ({ type: 'reasoning-delta', id: 'r', delta })), { type: 'reasoning-end', id: 'r' }]
    : [];
  return [...reasoning, ...text('t', step.text), { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage }];
}

/** `POST /demo/api/ai-sdk`: the route. */
export async function aiSdkRoute(request: Request): Promise<Response> {
  const { messages } = (await request.json()) as { messages: unknown };
  let modelMessages: ModelMessage[];
  let validated: Awaited<ReturnType<typeof validateUIMessages>>;
  try {
    validated = await validateUIMessages({ messages, tools: tools as never });
    modelMessages = await convertToModelMessages(validated, { tools });
  } catch (err) {
    return Response.json({ error: err instanceof Error ? err.message : String(err) }, { status: 400 });
  }
  let calls = 0;
  const model = new MockLanguageModelV3({
    doStream: async ({ prompt }) => ({ stream: simulateReadableStream({ chunks: modelParts(prompt, calls++), chunkDelayInMs: 25 }) }),
  });
  const result = streamText({ model, messages: modelMessages, tools, stopWhen: stepCountIs(5), abortSignal: request.signal });
  return result.toUIMessageStreamResponse({ originalMessages: validated, onError: (error) => (error instanceof Error ? error.message : String(error)) });
}
