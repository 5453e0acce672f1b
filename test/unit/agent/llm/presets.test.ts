import { describe, expect, expectTypeOf, it } from 'vitest';
import { LLM, type AssembledStep, type LLMStreamEvent } from '../../../../src/agent/llm/llm.js';
import {
  Anthropic,
  DeepSeek,
  Groq,
  LlamaCpp,
  LMStudio,
  Mistral,
  Moonshot,
  Ollama,
  OpenAI,
  OpenAIResponses,
  OpenRouter,
  PRESET_BASE_URLS,
  Sglang,
  Vllm,
  type PresetOptions,
} from '../../../../src/agent/llm/presets.js';

const OK = 'data: {"choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n';

/** A fetch that records what it was called with and answers a one-chunk stream. */
function recordingFetch() {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  const fetchImpl = (async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} });
    return new Response(OK, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
  }) as typeof fetch;
  return { calls, fetchImpl };
}

const presets: Array<[string, (model: string, opts?: PresetOptions) => LLM, string]> = [
  ['OpenAI', OpenAI, 'https://api.openai.com/v1'],
  ['DeepSeek', DeepSeek, 'https://api.deepseek.com'],
  ['Moonshot', Moonshot, 'https://api.moonshot.ai/v1'],
  ['OpenRouter', OpenRouter, 'https://openrouter.ai/api/v1'],
  ['Groq', Groq, 'https://api.groq.com/openai/v1'],
  ['Mistral', Mistral, 'https://api.mistral.ai/v1'],
  ['Ollama', Ollama, 'http://localhost:11434/v1'],
  ['LMStudio', LMStudio, 'http://localhost:1234/v1'],
  ['Vllm', Vllm, 'http://localhost:8000/v1'],
  ['Sglang', Sglang, 'http://localhost:30000/v1'],
  ['LlamaCpp', LlamaCpp, 'http://localhost:8080/v1'],
];

/** The presets of the model APIs beyond Chat Completions: their endpoint and the headers they send with a key. */
const apiPresets: Array<[string, (model: string, opts?: PresetOptions) => LLM, string, Record<string, string>]> = [
  ['OpenAIResponses', OpenAIResponses, 'https://api.openai.com/v1/responses', { 'Content-Type': 'application/json', Authorization: 'Bearer sk-test-1234567890' }],
  [
    'Anthropic',
    Anthropic,
    'https://api.anthropic.com/v1/messages',
    {
      'Content-Type': 'application/json',
      'anthropic-version': '2023-06-01',
      'anthropic-dangerous-direct-browser-access': 'true',
      'x-api-key': 'sk-test-1234567890',
    },
  ],
];

describe('provider presets', () => {
  it('covers every preset in PRESET_BASE_URLS', () => {
    expect([...presets, ...apiPresets].map(([name]) => name).sort()).toEqual(Object.keys(PRESET_BASE_URLS).sort());
  });

  for (const [name, make, url, headers] of apiPresets) {
    it(`${name} posts to ${url} with the API's own headers`, async () => {
      const calls: Array<{ url: string; init: RequestInit }> = [];
      const fetchImpl = (async (u: string | URL | Request, init?: RequestInit) => {
        calls.push({ url: String(u), init: init ?? {} });
        return new Response('', { status: 400 });
      }) as typeof fetch;
      const llm = make('m', { apiKey: 'sk-test-1234567890', fetch: fetchImpl });
      expect(llm.url).toBe(url);
      await expect(llm.complete({ messages: [{ role: 'user', content: 'Hi' }] })).rejects.toThrow('HTTP 400');
      expect(calls.map((c) => c.url)).toEqual([url]);
      expect(calls[0]!.init.headers).toEqual(headers);
    });
  }

  for (const [name, make, baseURL] of presets) {
    it(`${name} returns an LLM for the model with base URL ${baseURL}`, () => {
      const llm = make('some-model');
      expect(llm).toBeInstanceOf(LLM);
      expect(llm.model).toBe('some-model');
      expect(llm.baseURL).toBe(baseURL);
      expect(llm.url).toBe(`${baseURL}/chat/completions`);
    });

    it(`${name} posts to its endpoint with only Content-Type and Authorization headers`, async () => {
      const { calls, fetchImpl } = recordingFetch();
      const step = await make('m', { apiKey: 'sk-test-1234567890', fetch: fetchImpl }).complete({ messages: [{ role: 'user', content: 'Hi' }] });
      expect(step.content).toBe('hi');
      expect(calls).toHaveLength(1);
      expect(calls[0]!.url).toBe(`${baseURL}/chat/completions`);
      expect(calls[0]!.init.method).toBe('POST');
      expect(calls[0]!.init.headers).toEqual({ 'Content-Type': 'application/json', Authorization: 'Bearer sk-test-1234567890' });
    });
  }

  it('lets the base URL be overridden (and drops a trailing slash)', () => {
    expect(Moonshot('kimi-k2', { baseURL: 'https://api.moonshot.cn/v1/' }).url).toBe('https://api.moonshot.cn/v1/chat/completions');
    expect(Ollama('qwen3', { baseURL: 'http://gpu-box:11434/v1' }).baseURL).toBe('http://gpu-box:11434/v1');
  });

  it('asks for usage by default, except Mistral which rejects stream_options', async () => {
    for (const [name, make] of presets) {
      const { calls, fetchImpl } = recordingFetch();
      await make('m', { fetch: fetchImpl }).complete({ messages: [{ role: 'user', content: 'Hi' }] });
      const body = JSON.parse(String(calls[0]!.init.body)) as Record<string, unknown>;
      if (name === 'Mistral') expect(body).not.toHaveProperty('stream_options');
      else expect(body['stream_options']).toEqual({ include_usage: true });
    }
  });

  it('still sends stream_options to Mistral when includeUsage is set to true', async () => {
    const { calls, fetchImpl } = recordingFetch();
    await Mistral('m', { fetch: fetchImpl, includeUsage: true }).complete({ messages: [{ role: 'user', content: 'Hi' }] });
    expect(JSON.parse(String(calls[0]!.init.body))).toHaveProperty('stream_options', { include_usage: true });
  });
});

describe('LLM request body', () => {
  it('is model, messages, stream, stream_options, then requestKwargs and per-call kwargs (later wins)', async () => {
    const { calls, fetchImpl } = recordingFetch();
    const llm = new LLM('gpt-x', { baseURL: 'https://example.test/v1', fetch: fetchImpl, requestKwargs: { temperature: 0.2, max_tokens: 100 } });
    await llm.complete({ messages: [{ role: 'user', content: 'Hi' }], kwargs: { temperature: 0.9, reasoning_effort: 'low' } });
    expect(JSON.parse(String(calls[0]!.init.body))).toEqual({
      model: 'gpt-x',
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0.9,
      max_tokens: 100,
      reasoning_effort: 'low',
    });
  });

  it('sends tools only when there are some, and no Authorization header without a key', async () => {
    const { calls, fetchImpl } = recordingFetch();
    const llm = new LLM('m', { baseURL: 'http://localhost:1/v1', fetch: fetchImpl, includeUsage: false });
    const tool = { type: 'function' as const, function: { name: 'echo', description: 'Echo', parameters: { type: 'object' } } };
    await llm.complete({ messages: [{ role: 'user', content: 'a' }], tools: [] });
    await llm.complete({ messages: [{ role: 'user', content: 'b' }], tools: [tool] });
    const [first, second] = calls.map((c) => JSON.parse(String(c.init.body)) as Record<string, unknown>);
    expect(first).toEqual({ model: 'm', messages: [{ role: 'user', content: 'a' }], stream: true });
    expect(second!['tools']).toEqual([tool]);
    expect(calls[0]!.init.headers).toEqual({ 'Content-Type': 'application/json' });
  });

  it('keeps the API key out of JSON.stringify of the client', () => {
    const llm = OpenAI('gpt-4o', { apiKey: 'sk-secret-abcdef123456' });
    expect(JSON.stringify(llm)).not.toContain('sk-secret');
    expect(Object.values(llm)).not.toContain('sk-secret-abcdef123456');
  });
});

describe('LLM types', () => {
  it('types presets, stream events and options as the contract says', () => {
    expectTypeOf(OpenAI).returns.toEqualTypeOf<LLM>();
    expectTypeOf<PresetOptions['baseURL']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<LLM['complete']>().returns.resolves.toEqualTypeOf<AssembledStep>();
    expectTypeOf<Extract<LLMStreamEvent, { type: 'step' }>['step']>().toEqualTypeOf<AssembledStep>();
    expectTypeOf<Extract<LLMStreamEvent, { type: 'text' }>>().toEqualTypeOf<{ type: 'text'; text: string }>();
    // @ts-expect-error baseURL is required by the LLM constructor
    expect(() => new LLM('m', {})).toThrow();
    // @ts-expect-error apiKey is a string
    const wrongKey = () => OpenAI('m', { apiKey: 1 });
    expectTypeOf(wrongKey).toBeFunction();
  });
});
