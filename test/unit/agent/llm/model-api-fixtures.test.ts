// The streams of test/fixtures/model-apis/ read twice: by the official SDKs' own stream helpers (the judges
// that a fixture is what the API sends: they check the order of events and assemble the final message) and
// by our readers, split at every kind of boundary. What both assemble must agree.
import { readdirSync, readFileSync } from 'node:fs';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { PagentError } from '../../../../src/errors.js';
import { createCompletionDecoder, providerErrorMessage, type AssembledStep, type AssemblerDelta } from '../../../../src/agent/llm/chunk-assembler.js';
import { createEventStreamDecoder, type StreamDecoder } from '../../../../src/agent/llm/event-stream-decoder.js';
import { createApi as responsesApi } from '../../../../src/agent/llm/responses-api.js';
import { createApi as anthropicApi } from '../../../../src/agent/llm/anthropic-api.js';
import type { ModelApiContext } from '../../../../src/agent/llm/model-api.js';

const context: ModelApiContext = { PagentError, createEventStreamDecoder, providerErrorMessage };
const dir = new URL('../../../fixtures/model-apis/', import.meta.url);
const fixture = (path: string): string => readFileSync(new URL(path, dir), 'utf8');
const names = (api: string): string[] => readdirSync(new URL(`${api}/`, dir)).filter((f) => f.startsWith('parity-')).map((f) => f.replace('.sse', '')).sort();

/** A fetch that answers every request with `body` as an event stream. */
const serve = (body: string): typeof fetch => (async () => new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } })) as typeof fetch;

/** Reads `body` with a decoder, fed in pieces of `size` bytes (0: whole); the deltas, then the step or the error. */
function read(decoder: StreamDecoder, body: string, size: number): { deltas: AssemblerDelta[]; step?: AssembledStep; error?: unknown; how?: string } {
  const bytes = new TextEncoder().encode(body);
  const deltas: AssemblerDelta[] = [];
  try {
    for (let at = 0; at < bytes.length; at += size || bytes.length) deltas.push(...decoder.feed(bytes.subarray(at, at + (size || bytes.length))));
    const end = decoder.end();
    deltas.push(...end.deltas);
    return { deltas, step: decoder.result(), how: end.how };
  } catch (error) {
    return { deltas, error };
  }
}

const joined = (deltas: AssemblerDelta[], type: 'text' | 'reasoning'): string => deltas.filter((d) => d.type === type).map((d) => d.text).join('');
const identity = (text: string): string => text;
// whole, one byte at a time (every UTF-8 sequence and CRLF split), and odd pieces
const SPLITS = [0, 1, 7, 64];

describe('Responses API fixtures', () => {
  it('has the four answers of the scripted conversation', () => {
    expect(names('responses')).toEqual(['parity-1', 'parity-2', 'parity-3', 'parity-4']);
  });

  for (const name of names('responses')) {
    it(`${name}: the openai SDK's ResponseStream and our reader assemble the same answer`, async () => {
      const body = fixture(`responses/${name}.sse`);
      const client = new OpenAI({ apiKey: 'sk-judge', baseURL: 'https://judge.test/v1', fetch: serve(body), maxRetries: 0 });
      const final = await client.responses.stream({ model: 'gpt-5-mini', input: 'judge' }).finalResponse();
      expect(final.status).toBe('completed');
      const calls = final.output.filter((item) => item.type === 'function_call');
      const reasoning = final.output.filter((item) => item.type === 'reasoning');
      for (const size of SPLITS) {
        const { deltas, step, how } = read(responsesApi(context).decoder({ maxEventBytes: 1 << 20, redact: identity }), body, size);
        expect(how).toBe('finished');
        expect(joined(deltas, 'text')).toBe(final.output_text);
        expect(step).toEqual({
          content: final.output_text,
          reasoning_content: reasoning.map((r) => r.summary.map((s) => s.text).join('\n\n')).join('\n\n'),
          tool_calls: calls.map((c) => ({ id: c.call_id, type: 'function', function: { name: c.name, arguments: c.arguments } })),
          finish_reason: calls.length > 0 ? 'tool_calls' : 'stop',
          usage: final.usage,
          reasoning_blocks: reasoning.map((r) => ({ type: 'reasoning', id: r.id, summary: r.summary, encrypted_content: r.encrypted_content })),
        });
        expect(joined(deltas, 'reasoning')).toBe(step!.reasoning_content);
      }
    });
  }

  it('the SDK and our reader both fail on an error event mid-stream, after the text before it', async () => {
    const body = fixture('responses/error-mid.sse');
    const client = new OpenAI({ apiKey: 'sk-judge', baseURL: 'https://judge.test/v1', fetch: serve(body), maxRetries: 0 });
    const seen: string[] = [];
    const stream = client.responses.stream({ model: 'gpt-5-mini', input: 'judge' });
    stream.on('response.output_text.delta', (e) => seen.push(e.delta));
    await expect(stream.finalResponse()).rejects.toThrow();
    const { deltas, error } = read(responsesApi(context).decoder({ maxEventBytes: 1 << 20, redact: identity }), body, 0);
    expect(joined(deltas, 'text')).toBe(seen.join(''));
    expect(joined(deltas, 'text')).toBe('Partial answer');
    expect(error).toBeInstanceOf(PagentError);
    expect((error as PagentError).code).toBe('provider');
    expect((error as PagentError).message).toBe('Provider error in the stream: The server had an error while processing your request. (code server_error)');
  });

  it('reads response.failed as a provider error with its message', () => {
    const { deltas, error } = read(responsesApi(context).decoder({ maxEventBytes: 1 << 20, redact: identity }), fixture('responses/failed.sse'), 0);
    expect(joined(deltas, 'text')).toBe('Hel');
    expect((error as PagentError).message).toBe('Provider error in the stream: Rate limit reached for requests (code rate_limit_exceeded)');
  });
});

describe('Anthropic Messages fixtures', () => {
  it('has the four answers of the scripted conversation', () => {
    expect(names('anthropic')).toEqual(['parity-1', 'parity-2', 'parity-3', 'parity-4']);
  });

  for (const name of names('anthropic')) {
    it(`${name}: the @anthropic-ai/sdk MessageStream and our reader assemble the same answer`, async () => {
      const body = fixture(`anthropic/${name}.sse`);
      const client = new Anthropic({ apiKey: 'sk-ant-judge', baseURL: 'https://judge.test', fetch: serve(body), maxRetries: 0 });
      const final = await client.messages.stream({ model: 'claude-sonnet-4-5', max_tokens: 1024, messages: [{ role: 'user', content: 'judge' }] }).finalMessage();
      const texts = final.content.flatMap((b) => (b.type === 'text' ? [b.text] : []));
      const thinking = final.content.flatMap((b) => (b.type === 'thinking' ? [b.thinking] : []));
      const tools = final.content.flatMap((b) => (b.type === 'tool_use' ? [b] : []));
      const kept = final.content.filter((b) => b.type === 'thinking' || b.type === 'redacted_thinking');
      const stop: Record<string, string> = { end_turn: 'stop', tool_use: 'tool_calls' };
      for (const size of SPLITS) {
        const { deltas, step, how } = read(anthropicApi(context).decoder({ maxEventBytes: 1 << 20, redact: identity }), body, size);
        expect(how).toBe('finished');
        expect(step?.content).toBe(texts.join(''));
        expect(step?.reasoning_content).toBe(thinking.join('\n\n'));
        expect(joined(deltas, 'reasoning')).toBe(step?.reasoning_content);
        expect(step?.tool_calls.map((c) => ({ id: c.id, name: c.function.name, input: JSON.parse(c.function.arguments) as unknown }))).toEqual(
          tools.map((t) => ({ id: t.id, name: t.name, input: t.input })),
        );
        expect(step?.finish_reason).toBe(stop[final.stop_reason ?? '']);
        expect(step?.usage).toEqual(final.usage);
        expect(step?.reasoning_blocks).toEqual(kept);
      }
    });
  }

  it('the SDK and our reader both fail on an overloaded_error event mid-stream, after the text before it', async () => {
    const body = fixture('anthropic/error-mid.sse');
    const client = new Anthropic({ apiKey: 'sk-ant-judge', baseURL: 'https://judge.test', fetch: serve(body), maxRetries: 0 });
    const seen: string[] = [];
    const stream = client.messages.stream({ model: 'claude-sonnet-4-5', max_tokens: 1024, messages: [{ role: 'user', content: 'judge' }] });
    stream.on('text', (t) => seen.push(t));
    await expect(stream.finalMessage()).rejects.toThrow(/Overloaded/);
    const { deltas, error } = read(anthropicApi(context).decoder({ maxEventBytes: 1 << 20, redact: identity }), body, 0);
    expect(joined(deltas, 'text')).toBe(seen.join(''));
    expect(joined(deltas, 'text')).toBe('Partial answer');
    expect((error as PagentError).code).toBe('provider');
    expect((error as PagentError).message).toBe('Provider error in the stream: Overloaded (overloaded_error)');
  });
});

describe('Chat Completions fixtures of the same conversation', () => {
  for (const name of names('chat')) {
    it(`${name}: the openai SDK's ChatCompletionStream and our decoder assemble the same answer`, async () => {
      const body = fixture(`chat/${name}.sse`);
      const client = new OpenAI({ apiKey: 'sk-judge', baseURL: 'https://judge.test/v1', fetch: serve(body), maxRetries: 0 });
      const final = await client.chat.completions.stream({ model: 'scripted-model', messages: [{ role: 'user', content: 'judge' }] }).finalChatCompletion();
      const message = final.choices[0]!.message;
      const { step, how } = read(createCompletionDecoder(), body, 1);
      expect(how).toBe('done');
      expect(step?.content).toBe(message.content ?? '');
      expect(step?.tool_calls).toEqual((message.tool_calls ?? []).map((c) => ({ id: c.id, type: 'function', function: c.type === 'function' ? c.function : undefined })));
      expect(step?.finish_reason).toBe(final.choices[0]!.finish_reason);
      expect(step?.usage).toEqual(final.usage);
    });
  }
});
