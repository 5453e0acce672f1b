// The readers of the Responses and Anthropic Messages streams on what the fixtures do not show: stop
// reasons, redaction of the reasoning kept for the next request, non-streamed JSON answers, work per event.
import { describe, expect, it } from 'vitest';
import { PagentError } from '../../../../src/errors.js';
import { providerErrorMessage } from '../../../../src/agent/llm/chunk-assembler.js';
import { createEventStreamDecoder } from '../../../../src/agent/llm/event-stream-decoder.js';
import { createAnthropicReader } from '../../../../src/agent/llm/anthropic-reader.js';
import { createResponsesReader } from '../../../../src/agent/llm/responses-reader.js';
import { createApi as anthropicApi } from '../../../../src/agent/llm/anthropic-api.js';
import { createApi as responsesApi } from '../../../../src/agent/llm/responses-api.js';
import { createRedactor } from '../../../../src/agent/redact.js';
import type { ModelApiContext } from '../../../../src/agent/llm/model-api.js';

const context: ModelApiContext = { PagentError, createEventStreamDecoder, providerErrorMessage };
const identity = (t: string): string => t;
const KEY = 'sk-ant-api03-SECRET-0123456789abcdef';

describe('Anthropic reader', () => {
  const start = { type: 'message_start', message: { usage: { input_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 90, output_tokens: 1 } } };

  it('maps stop reasons onto finish_reason words', () => {
    for (const [stop, finish] of [
      ['end_turn', 'stop'],
      ['stop_sequence', 'stop'],
      ['max_tokens', 'length'],
      ['tool_use', 'tool_calls'],
      ['refusal', 'content_filter'],
      ['pause_turn', 'pause_turn'],
    ]) {
      const reader = createAnthropicReader(context, identity);
      reader.push(start, 'message_start');
      reader.push({ type: 'message_delta', delta: { stop_reason: stop }, usage: { output_tokens: 5 } }, 'message_delta');
      expect(reader.finished).toBe(false);
      reader.push({ type: 'message_stop' }, 'message_stop');
      expect(reader.result().finish_reason).toBe(finish);
    }
  });

  it('keeps the cached tokens in usage, each later count replacing its own', () => {
    const reader = createAnthropicReader(context, identity);
    reader.push(start, undefined);
    reader.push({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 7, input_tokens: null } }, undefined);
    expect(reader.result().usage).toEqual({ input_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 90, output_tokens: 7 });
  });

  it('leaves out of reasoning_blocks a thinking block that quoted the key (its signature would no longer match), keeping its redacted text', () => {
    const redactor = createRedactor([KEY]);
    const reader = createAnthropicReader(context, (t) => redactor.redact(t));
    reader.push(start, undefined);
    reader.push({ type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }, undefined);
    reader.push({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: `The key is ${KEY}.` } }, undefined);
    reader.push({ type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'EqSig1' } }, undefined);
    reader.push({ type: 'content_block_start', index: 1, content_block: { type: 'thinking', thinking: '', signature: '' } }, undefined);
    reader.push({ type: 'content_block_delta', index: 1, delta: { type: 'thinking_delta', thinking: 'Fine.' } }, undefined);
    reader.push({ type: 'content_block_delta', index: 1, delta: { type: 'signature_delta', signature: 'EqSig2' } }, undefined);
    reader.push({ type: 'content_block_start', index: 2, content_block: { type: 'thinking', thinking: 'unsigned', signature: '' } }, undefined);
    const step = reader.result();
    expect(step.reasoning_blocks).toEqual([{ type: 'thinking', thinking: 'Fine.', signature: 'EqSig2' }]);
    expect(JSON.stringify(step.reasoning_blocks)).not.toContain(KEY);
  });

  it('reads a message answered as JSON, and an error body as a provider error', () => {
    const api = anthropicApi(context);
    const { deltas, step } = api.fromJson(
      JSON.stringify({
        type: 'message',
        content: [
          { type: 'thinking', thinking: 'Hmm.', signature: 'EqS' },
          { type: 'text', text: 'Hi!' },
          { type: 'tool_use', id: 'toolu_1', name: 'echo', input: { text: 'x' } },
        ],
        stop_reason: 'tool_use',
        usage: { input_tokens: 3, output_tokens: 4 },
      }),
      { url: 'https://example.test/v1/messages', redact: identity },
    );
    expect(deltas).toEqual([{ type: 'reasoning', text: 'Hmm.' }, { type: 'text', text: 'Hi!' }]);
    expect(step).toEqual({
      content: 'Hi!',
      reasoning_content: 'Hmm.',
      tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'echo', arguments: '{"text":"x"}' } }],
      finish_reason: 'tool_calls',
      usage: { input_tokens: 3, output_tokens: 4 },
      reasoning_blocks: [{ type: 'thinking', thinking: 'Hmm.', signature: 'EqS' }],
    });
    expect(() => api.fromJson('{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}', { url: 'u', redact: identity })).toThrow(
      'Provider error: Overloaded (overloaded_error)',
    );
  });
});

describe('Responses reader', () => {
  it('maps an incomplete response to length or content_filter', () => {
    for (const [reason, finish] of [
      ['max_output_tokens', 'length'],
      ['content_filter', 'content_filter'],
    ]) {
      const reader = createResponsesReader(context, identity);
      reader.push({ type: 'response.output_text.delta', item_id: 'msg_1', delta: 'Hal' }, undefined);
      reader.push({ type: 'response.incomplete', response: { status: 'incomplete', incomplete_details: { reason }, output: [], usage: null } }, undefined);
      expect(reader.finished).toBe(true);
      expect(reader.result()).toMatchObject({ content: 'Hal', finish_reason: finish });
    }
  });

  it('puts a blank line between summary parts and between reasoning items, and reads raw reasoning text', () => {
    const reader = createResponsesReader(context, identity);
    const out = [
      { type: 'response.output_item.added', output_index: 0, item: { id: 'rs_1', type: 'reasoning', summary: [] } },
      { type: 'response.reasoning_summary_text.delta', item_id: 'rs_1', summary_index: 0, delta: 'One' },
      { type: 'response.reasoning_summary_text.delta', item_id: 'rs_1', summary_index: 0, delta: '.' },
      { type: 'response.reasoning_summary_text.delta', item_id: 'rs_1', summary_index: 1, delta: 'Two.' },
      { type: 'response.reasoning_text.delta', item_id: 'rs_2', content_index: 0, delta: 'Raw.' },
    ].flatMap((e) => reader.push(e, undefined));
    expect(out.map((d) => d.text).join('')).toBe('One.\n\nTwo.\n\nRaw.');
    expect(reader.result().reasoning_blocks).toEqual([{ type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'One.' }, { type: 'summary_text', text: 'Two.' }] }]);
  });

  it('redacts the key from the summaries it keeps', () => {
    const redactor = createRedactor([KEY]);
    const reader = createResponsesReader(context, (t) => redactor.redact(t));
    reader.push({ type: 'response.output_item.done', output_index: 0, item: { id: 'rs_1', type: 'reasoning', summary: [{ type: 'summary_text', text: `key ${KEY}` }], encrypted_content: 'gAAAA' } }, undefined);
    expect(reader.result().reasoning_blocks).toEqual([{ type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'key [redacted]' }], encrypted_content: 'gAAAA' }]);
  });

  it('reads a response answered as JSON (and a server that streams only response.completed) from its output', () => {
    const response = {
      id: 'resp_1',
      status: 'completed',
      output: [
        { id: 'rs_1', type: 'reasoning', summary: [{ type: 'summary_text', text: 'Think.' }], encrypted_content: 'gAAAA' },
        { id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Hi!', annotations: [] }] },
        { id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'echo', arguments: '{"text":"x"}' },
      ],
      usage: { input_tokens: 5, output_tokens: 6, total_tokens: 11 },
    };
    const expected = {
      content: 'Hi!',
      reasoning_content: 'Think.',
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'echo', arguments: '{"text":"x"}' } }],
      finish_reason: 'tool_calls',
      usage: response.usage,
      reasoning_blocks: [{ type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Think.' }], encrypted_content: 'gAAAA' }],
    };
    const api = responsesApi(context);
    expect(api.fromJson(JSON.stringify(response), { url: 'u', redact: identity }).step).toEqual(expected);
    const decoder = api.decoder({ maxEventBytes: 1 << 20, redact: identity });
    const deltas = decoder.feed(`event: response.completed\ndata: ${JSON.stringify({ type: 'response.completed', response })}\n\n`);
    expect(deltas).toEqual([{ type: 'reasoning', text: 'Think.' }, { type: 'text', text: 'Hi!' }]);
    expect(decoder.end().how).toBe('finished');
    expect(decoder.result()).toEqual(expected);
    expect(() => api.fromJson('{"error":{"message":"Bad key","code":"invalid_api_key"}}', { url: 'u', redact: identity })).toThrow('Provider error: Bad key (code invalid_api_key)');
  });

  it('ignores a trailing data: [DONE] as Open Responses servers send it', () => {
    const decoder = responsesApi(context).decoder({ maxEventBytes: 1 << 20, redact: identity });
    decoder.feed('event: response.completed\ndata: {"type":"response.completed","response":{"output":[],"usage":null}}\n\ndata: [DONE]\n\n');
    expect(decoder.end().how).toBe('done');
  });
});
