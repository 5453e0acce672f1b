// The request bodies of the Responses and Anthropic Messages APIs, built from one conversation that has
// everything the agent keeps: a system prompt, images and files, reasoning of both APIs, parallel tool
// calls, tool results and a steered message. Their types must be the official SDKs' request types.
import type { MessageCreateParamsStreaming } from '@anthropic-ai/sdk/resources/messages';
import type { ResponseCreateParamsStreaming } from 'openai/resources/responses/responses';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { PagentError } from '../../../../src/errors.js';
import { LLM } from '../../../../src/agent/llm/llm.js';
import { Anthropic, OpenAIResponses } from '../../../../src/agent/llm/presets.js';
import { anthropicRequest, ANTHROPIC_DEFAULT_MAX_TOKENS, type AnthropicRequest } from '../../../../src/agent/llm/anthropic-request.js';
import { responsesRequest, type ResponsesRequest } from '../../../../src/agent/llm/responses-request.js';
import type { ChatMessage, ToolSchema } from '../../../../src/agent/messages.js';

const PNG = 'data:image/png;base64,iVBORw0KGgo=';
const PDF = 'data:application/pdf;base64,JVBERi0xLjQK';
const NOTES = 'data:text/plain;base64,' + btoa('caf\xc3\xa9 notes'); // "café notes" in UTF-8
const THINKING = { type: 'thinking' as const, thinking: 'Two calls at once.', signature: 'EqQBsig==' };
const REDACTED = { type: 'redacted_thinking' as const, data: 'EmwKAhgBredacted' };
const REASONING = { type: 'reasoning' as const, id: 'rs_1', summary: [{ type: 'summary_text' as const, text: 'Two calls at once.' }], encrypted_content: 'gAAAAenc' };
const UNENCRYPTED = { type: 'reasoning' as const, id: 'rs_2', summary: [] };

const tools: ToolSchema[] = [
  { type: 'function', function: { name: 'get_weather', description: 'Weather of a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } },
];

const conversation: ChatMessage[] = [
  { role: 'system', content: 'Be brief.' },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'What is in these?' },
      { type: 'image_url', image_url: { url: PNG, detail: 'low' } },
      { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } },
      { type: 'file', file: { filename: 'paper.pdf', file_data: PDF } },
      { type: 'file', file: { filename: 'notes.txt', file_data: NOTES } },
    ],
  },
  {
    role: 'assistant',
    content: 'Checking.',
    reasoning_content: 'Two calls at once.',
    reasoning_blocks: [THINKING, REDACTED, REASONING, UNENCRYPTED],
    tool_calls: [
      { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city": "Paris"}' } },
      { id: 'call_2', type: 'function', function: { name: 'get_weather', arguments: 'not json' } },
    ],
  },
  { role: 'tool', tool_call_id: 'call_1', content: '{"temp": 18}' },
  { role: 'tool', tool_call_id: 'call_2', content: 'Invalid JSON in tool arguments: not json' },
  { role: 'user', content: 'Also Tokyo.' },
  { role: 'assistant', content: 'Paris 18 °C.', reasoning_content: 'old' },
  { role: 'user', content: 'Thanks' },
];

describe('Responses API request', () => {
  it('puts the system prompt in instructions and every message in its own input item', () => {
    expect(responsesRequest('gpt-5-mini', conversation, tools, {})).toEqual({
      model: 'gpt-5-mini',
      instructions: 'Be brief.',
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'What is in these?' },
            { type: 'input_image', image_url: PNG, detail: 'low' },
            { type: 'input_image', image_url: 'https://example.com/cat.jpg', detail: 'auto' },
            { type: 'input_file', filename: 'paper.pdf', file_data: PDF },
            { type: 'input_file', filename: 'notes.txt', file_data: NOTES },
          ],
        },
        REASONING,
        { role: 'assistant', content: 'Checking.' },
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city": "Paris"}' },
        { type: 'function_call', call_id: 'call_2', name: 'get_weather', arguments: 'not json' },
        { type: 'function_call_output', call_id: 'call_1', output: '{"temp": 18}' },
        { type: 'function_call_output', call_id: 'call_2', output: 'Invalid JSON in tool arguments: not json' },
        { role: 'user', content: 'Also Tokyo.' },
        { role: 'assistant', content: 'Paris 18 °C.' },
        { role: 'user', content: 'Thanks' },
      ],
      tools: [{ type: 'function', name: 'get_weather', description: 'Weather of a city', parameters: tools[0]!.function.parameters, strict: false }],
      stream: true,
      store: false,
    });
  });

  it('asks for the encrypted reasoning only with `reasoning` set, and sends reasoning by id when the responses are stored', () => {
    expect(responsesRequest('m', conversation, undefined, { reasoning: { effort: 'low' } }).include).toEqual(['reasoning.encrypted_content']);
    expect(responsesRequest('m', conversation, undefined, { reasoning: { effort: 'low' }, include: [] }).include).toBeUndefined();
    const stored = responsesRequest('m', conversation, undefined, { store: true, reasoning: { effort: 'low' } });
    expect(stored.include).toBeUndefined();
    expect(stored.input.filter((i) => 'type' in i && i.type === 'reasoning')).toEqual([REASONING, UNENCRYPTED]);
  });

  it('leaves out reasoning that no item follows (the API refuses it), and keeps a later system message in place', () => {
    const body = responsesRequest('m', [{ role: 'user', content: 'a' }, { role: 'assistant', content: '', reasoning_blocks: [REASONING] }, { role: 'system', content: 'Now in French.' }], undefined, {});
    expect(body.instructions).toBeUndefined();
    expect(body.input).toEqual([{ role: 'user', content: 'a' }, { role: 'system', content: 'Now in French.' }]);
  });

  it("type-checks as the openai SDK's ResponseCreateParamsStreaming", () => {
    expectTypeOf<ResponsesRequest>().toExtend<ResponseCreateParamsStreaming>();
    const body: ResponseCreateParamsStreaming = responsesRequest('m', conversation, tools, {});
    expect(body.stream).toBe(true);
  });
});

describe('Anthropic Messages request', () => {
  it('puts the system prompt in system, thinking blocks first, tool results in one user message before the text', () => {
    expect(anthropicRequest('claude-sonnet-4-5', conversation, tools, {})).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: ANTHROPIC_DEFAULT_MAX_TOKENS,
      system: 'Be brief.',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in these?' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
            { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
            { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjQK' }, title: 'paper.pdf' },
            { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'café notes' }, title: 'notes.txt' },
          ],
        },
        {
          role: 'assistant',
          content: [
            THINKING,
            REDACTED,
            { type: 'text', text: 'Checking.' },
            { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } },
            { type: 'tool_use', id: 'call_2', name: 'get_weather', input: {} },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'call_1', content: '{"temp": 18}' },
            { type: 'tool_result', tool_use_id: 'call_2', content: 'Invalid JSON in tool arguments: not json' },
            { type: 'text', text: 'Also Tokyo.' },
          ],
        },
        { role: 'assistant', content: [{ type: 'text', text: 'Paris 18 °C.' }] },
        { role: 'user', content: 'Thanks' },
      ],
      tools: [{ name: 'get_weather', description: 'Weather of a city', input_schema: tools[0]!.function.parameters }],
      stream: true,
    });
  });

  it('adds the thinking budget to the default max_tokens', () => {
    expect(anthropicRequest('m', conversation, undefined, { thinking: { type: 'enabled', budget_tokens: 2048 } }).max_tokens).toBe(ANTHROPIC_DEFAULT_MAX_TOKENS + 2048);
    expect(anthropicRequest('m', conversation, undefined, { thinking: { type: 'disabled' } }).max_tokens).toBe(ANTHROPIC_DEFAULT_MAX_TOKENS);
  });

  it("type-checks as the @anthropic-ai/sdk's MessageCreateParamsStreaming", () => {
    expectTypeOf<AnthropicRequest>().toExtend<MessageCreateParamsStreaming>();
    const body: MessageCreateParamsStreaming = anthropicRequest('m', conversation, tools, {});
    expect(body.stream).toBe(true);
  });
});

describe('LLM with each API', () => {
  it('posts to /responses and /messages, with the kwargs last', async () => {
    const bodies: unknown[] = [];
    const fetchImpl = (async (_url: RequestInfo | URL, init?: RequestInit) => {
      bodies.push(JSON.parse(String(init?.body)));
      return new Response('', { status: 500 });
    }) as typeof fetch;
    const responses = OpenAIResponses('gpt-5-mini', { fetch: fetchImpl, retries: 0, requestKwargs: { store: true, temperature: 0 } });
    const anthropic = Anthropic('claude-sonnet-4-5', { fetch: fetchImpl, retries: 0, requestKwargs: { max_tokens: 100 } });
    expect(responses.url).toBe('https://api.openai.com/v1/responses');
    expect(anthropic.url).toBe('https://api.anthropic.com/v1/messages');
    expect(await responses.requestBody({ messages: [{ role: 'user', content: 'Hi' }], kwargs: { temperature: 1 } })).toEqual({
      model: 'gpt-5-mini',
      input: [{ role: 'user', content: 'Hi' }],
      stream: true,
      store: true,
      temperature: 1,
    });
    expect(await anthropic.requestBody({ messages: [{ role: 'user', content: 'Hi' }] })).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
    });
  });

  it('sends Chat Completions no reasoning kept for another API', async () => {
    const llm = new LLM('m', { baseURL: 'https://example.test/v1' });
    const body = await llm.requestBody({ messages: conversation.slice(2, 3) });
    expect(JSON.parse(JSON.stringify(body))).toEqual({
      model: 'm',
      messages: [{ role: 'assistant', content: 'Checking.', reasoning_content: 'Two calls at once.', tool_calls: (conversation[2] as { tool_calls: unknown }).tool_calls }],
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('refuses an unknown api in the constructor', () => {
    const make = (): LLM => new LLM('m', { baseURL: 'https://example.test/v1', api: 'gemini' as 'responses' });
    expect(make).toThrow(PagentError);
    expect(make).toThrow('LLM: "api" must be "chat-completions", "responses" or "anthropic-messages" (got "gemini")');
  });
});
