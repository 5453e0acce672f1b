/**
 * AI SDK UI message streams written by the SDK itself: `streamText` over `MockLanguageModelV3` (from
 * `ai/test`, each model call streaming scripted parts through `simulateReadableStream`), with real
 * tools, turned into a response by `toUIMessageStreamResponse()` — the bytes a `useChat` back end sends.
 */
import {
  createUIMessageStream,
  createUIMessageStreamResponse,
  jsonSchema,
  simulateReadableStream,
  stepCountIs,
  streamText,
  tool,
  type ToolSet,
} from 'ai';
import { MockLanguageModelV3 } from 'ai/test';

/** A part of a model's stream, as the language model interface (v3) types it. */
type LanguageModelV3StreamPart = Awaited<ReturnType<MockLanguageModelV3['doStream']>>['stream'] extends ReadableStream<infer P> ? P : never;

/** One model call's parts; `{type: 'abort-here'}` aborts the request at that point. */
export type ModelPart = LanguageModelV3StreamPart | { type: 'abort-here' };

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

/** A model call's closing part. */
export const finish = (unified: 'stop' | 'tool-calls' | 'length' = 'stop'): LanguageModelV3StreamPart => ({
  type: 'finish',
  finishReason: { unified, raw: unified },
  usage,
});

/** A streamed text part: start, the deltas, end. */
export function textParts(id: string, ...deltas: string[]): LanguageModelV3StreamPart[] {
  return [{ type: 'text-start', id }, ...deltas.map((delta) => ({ type: 'text-delta' as const, id, delta })), { type: 'text-end', id }];
}

/** A streamed reasoning part. */
export function reasoningParts(id: string, ...deltas: string[]): LanguageModelV3StreamPart[] {
  return [
    { type: 'reasoning-start', id },
    ...deltas.map((delta) => ({ type: 'reasoning-delta' as const, id, delta })),
    { type: 'reasoning-end', id },
  ];
}

/** A tool call whose input streams in pieces, then the complete call. */
export function streamedCall(id: string, toolName: string, ...pieces: string[]): LanguageModelV3StreamPart[] {
  return [
    { type: 'tool-input-start', id, toolName },
    ...pieces.map((delta) => ({ type: 'tool-input-delta' as const, id, delta })),
    { type: 'tool-input-end', id },
    { type: 'tool-call', toolCallId: id, toolName, input: pieces.join('') },
  ];
}

/** The tools the scenarios call: a working one, one that throws, and one that takes no input. */
export const scenarioTools = {
  get_weather: tool({
    description: 'Weather in a city',
    inputSchema: jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }),
    execute: async ({ city }) => ({ city, celsius: 18, sky: 'sunny' }),
  }),
  fail: tool({
    description: 'Always fails',
    inputSchema: jsonSchema<{ [key: string]: unknown }>({ type: 'object', properties: {} }),
    execute: async (): Promise<string> => {
      throw new Error('disk on fire');
    },
  }),
  clock: tool({
    description: 'The time',
    inputSchema: jsonSchema<{ [key: string]: unknown }>({ type: 'object', properties: {} }),
    execute: async () => '12:00',
  }),
} satisfies ToolSet;

/** A scenario: the parts of each model call, in order. */
export interface AiSdkScenario {
  steps: ModelPart[][];
  /** The model call throws instead of streaming (a provider error). */
  failCall?: number;
  /** Stream every part with this delay (so an abort lands mid-stream). */
  delayMs?: number;
}

function mockModel(scenario: AiSdkScenario, abort: AbortController): MockLanguageModelV3 {
  let call = 0;
  return new MockLanguageModelV3({
    doStream: async () => {
      const index = call++;
      if (scenario.failCall === index) throw new Error('provider unavailable (503)');
      const parts = scenario.steps[index] ?? [finish()];
      const cut = parts.findIndex((p) => p.type === 'abort-here');
      if (cut < 0) {
        return { stream: simulateReadableStream({ chunks: parts as LanguageModelV3StreamPart[], chunkDelayInMs: scenario.delayMs ?? null }) };
      }
      // stream up to the marker, then abort the request: the provider's body fails as an aborted fetch does
      const before = parts.slice(0, cut) as LanguageModelV3StreamPart[];
      const stream = new ReadableStream<LanguageModelV3StreamPart>({
        start(controller) {
          for (const part of before) controller.enqueue(part);
          setTimeout(() => {
            abort.abort();
            controller.error(new DOMException('This operation was aborted', 'AbortError'));
          }, 5);
        },
      });
      return { stream };
    },
  });
}

/** The UI message stream response `streamText(...).toUIMessageStreamResponse()` gives for a scenario. */
export function aiSdkResponse(scenario: AiSdkScenario): Response {
  const abort = new AbortController();
  const result = streamText({
    model: mockModel(scenario, abort),
    prompt: 'Hello',
    tools: scenarioTools,
    stopWhen: stepCountIs(8),
    abortSignal: abort.signal,
    onError: () => {},
  });
  // errors shown as their message (the SDK masks them as "An error occurred." by default)
  return result.toUIMessageStreamResponse({ onError: (error) => (error instanceof Error ? error.message : String(error)) });
}

/**
 * A response written with `createUIMessageStream`: data parts before and among the model's parts, the
 * model's sources and message metadata — what a back end that streams extra data sends.
 */
export function aiSdkResponseWithData(scenario: AiSdkScenario): Response {
  const abort = new AbortController();
  const stream = createUIMessageStream({
    execute: async ({ writer }) => {
      writer.write({ type: 'data-status', id: 's1', data: { phase: 'searching' } });
      const result = streamText({ model: mockModel(scenario, abort), prompt: 'Hello', tools: scenarioTools, onError: () => {} });
      writer.merge(
        result.toUIMessageStream({
          sendSources: true,
          messageMetadata: ({ part }) => (part.type === 'finish' ? { totalTokens: 15 } : undefined),
        }),
      );
      await result.consumeStream();
      writer.write({ type: 'data-status', id: 's1', data: { phase: 'done' }, transient: true });
    },
  });
  return createUIMessageStreamResponse({ stream });
}

/** Model calls used by several tests. */
export const aiSdkScenarios = {
  text: { steps: [[...textParts('t1', 'Hello ', 'wörld 🌍'), finish()]] },
  reasoning: { steps: [[...reasoningParts('r1', 'Think ', 'first.'), ...textParts('t1', 'Answer.'), finish()]] },
  /** Turn 0: text, a call with streamed input, a failing tool, a call with invalid input; turn 1: the answer. */
  tools: {
    steps: [
      [
        ...textParts('t1', 'Let me check.'),
        ...streamedCall('call-1', 'get_weather', '{"city":', ' "Paris"}'),
        { type: 'tool-call', toolCallId: 'call-2', toolName: 'fail', input: '{}' },
        { type: 'tool-call', toolCallId: 'call-3', toolName: 'get_weather', input: '{"city": 5' },
        finish('tool-calls'),
      ],
      [...textParts('t2', 'It is 18 °C.'), finish()],
    ],
  },
  /** Three turns: two parallel calls, then another call, then the answer. */
  multiStep: {
    steps: [
      [
        { type: 'tool-call', toolCallId: 'a', toolName: 'clock', input: '{}' },
        { type: 'tool-call', toolCallId: 'b', toolName: 'get_weather', input: '{"city":"Oslo"}' },
        finish('tool-calls'),
      ],
      [...reasoningParts('r2', 'One more.'), { type: 'tool-call', toolCallId: 'c', toolName: 'clock', input: '{}' }, finish('tool-calls')],
      [...textParts('t3', 'Noon in Oslo.'), finish()],
    ],
  },
  /** The provider reports an error mid-answer and the stream goes on to its finish. */
  errorMidAnswer: {
    steps: [[{ type: 'text-start', id: 't1' }, { type: 'text-delta', id: 't1', delta: 'Partial' }, { type: 'error', error: new Error('model overloaded') }, { type: 'text-delta', id: 't1', delta: ' rest' }, { type: 'text-end', id: 't1' }, finish()]],
  },
  /** The second model call fails before streaming anything. */
  providerDown: { steps: [[{ type: 'tool-call', toolCallId: 'a', toolName: 'clock', input: '{}' }, finish('tool-calls')]], failCall: 1 },
  /** A source and the answer (sent as `source-url` by `createUIMessageStream` with `sendSources`). */
  sources: {
    steps: [[{ type: 'source', sourceType: 'url', id: 'src-1', url: 'https://example.com/', title: 'Example' }, ...textParts('t1', 'See the source.'), finish()]],
  },
  /** The request is aborted mid-answer. */
  aborted: { steps: [[{ type: 'text-start', id: 't1' }, { type: 'text-delta', id: 't1', delta: 'Stopped ' }, { type: 'text-delta', id: 't1', delta: 'here' }, { type: 'abort-here' }]] },
} satisfies Record<string, AiSdkScenario>;
