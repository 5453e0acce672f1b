import { describe, expect, it } from 'vitest';
import { LLM, type LLMStreamEvent } from '../../../../src/agent/llm/llm.js';

const sse = (delta: Record<string, unknown>): string =>
  `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`;

/** A server whose first network chunk holds three deltas, and which then sends nothing more. */
const stalling = (async () =>
  new Response(
    new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(sse({ role: 'assistant', reasoning_content: 'one ' }) + sse({ reasoning_content: 'two ' }) + sse({ content: 'three' })));
      },
    }),
    { headers: { 'Content-Type': 'text/event-stream' } },
  )) as typeof fetch;

describe('LLM.stream and abort', () => {
  it('throws the abort reason at the next step, even when the events after it came in the same network chunk', async () => {
    const llm = new LLM('m', { baseURL: 'https://api.example.com/v1', fetch: stalling, retries: 0 });
    const controller = new AbortController();
    const reason = new DOMException('user stop', 'AbortError');
    const events: LLMStreamEvent[] = [];
    let error: unknown;
    try {
      for await (const e of llm.stream({ messages: [{ role: 'user', content: 'Hi' }], signal: controller.signal })) {
        events.push(e);
        controller.abort(reason);
      }
    } catch (err) {
      error = err;
    }
    expect(error).toBe(reason);
    expect(events).toEqual([{ type: 'reasoning', text: 'one ' }]);
  });
});
