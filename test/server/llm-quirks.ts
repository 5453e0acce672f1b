/**
 * Synthetic OpenAI-compatible streams, one per provider quirk that test/fixtures/providers-real does not show
 * (or shows only once). Pure data, no Node imports: the unit tests feed them to the assembler and
 * test/server/llm.ts serves them under /llm/quirk/<name>/v1/chat/completions.
 * Expected values are written by hand from the stream text.
 */

export interface QuirkStream {
  /** What the stream shows. */
  quirk: string;
  /** The response body, byte for byte. */
  sse: string;
  /** The assembled step (when the stream is not a failure). */
  expected?: {
    content: string;
    reasoning_content: string;
    tool_calls: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>;
    finish_reason: string | null;
    usage: Record<string, unknown> | null;
  };
  /** How the body ends for the decoder. */
  end?: 'done' | 'finished' | 'truncated';
  /** A failure the stream must cause, with a piece of its message. */
  error?: { code: 'provider'; message: string };
}

const chunk = (choices: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  id: 'chatcmpl-q',
  object: 'chat.completion.chunk',
  created: 1767225600,
  model: 'quirk',
  choices,
  ...extra,
});
const choice = (delta: Record<string, unknown>, finish_reason: string | null = null, extra: Record<string, unknown> = {}) => ({
  index: 0,
  delta,
  finish_reason,
  ...extra,
});
const sse = (...items: Array<Record<string, unknown> | string>): string =>
  items.map((i) => (typeof i === 'string' ? i : `data: ${JSON.stringify(i)}\n\n`)).join('');
const DONE = 'data: [DONE]\n\n';
const usage = { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 };
const empty = { content: '', reasoning_content: '', tool_calls: [], finish_reason: 'stop', usage: null };
const call = (id: string, name: string, args: string) => ({ id, type: 'function' as const, function: { name, arguments: args } });

export const QUIRK_STREAMS: Record<string, QuirkStream> = {
  'content-array': {
    quirk: 'content as an array of parts: text objects and bare strings kept, other parts (images) skipped',
    sse: sse(
      chunk([choice({ role: 'assistant', content: [{ type: 'text', text: 'Hel' }, { type: 'text', text: 'lo' }] })]),
      chunk([choice({ content: [' ', { type: 'image_url', image_url: { url: 'https://x/y.png' } }, { type: 'text', text: 'there' }] })]),
      chunk([choice({}, 'stop')]),
      DONE,
    ),
    expected: { ...empty, content: 'Hello there' },
    end: 'done',
  },
  'role-repeated-or-missing': {
    quirk: 'role on every delta, then deltas without role; content null and "" in between',
    sse: sse(
      chunk([choice({ role: 'assistant', content: 'A' })]),
      chunk([choice({ role: 'assistant', content: null })]),
      chunk([choice({ role: 'assistant', content: '' })]),
      chunk([choice({ content: 'B' })]),
      chunk([choice({ role: 'assistant' }, 'stop')]),
      DONE,
    ),
    expected: { ...empty, content: 'AB' },
    end: 'done',
  },
  'reasoning-field': {
    quirk: 'reasoning in delta.reasoning (Ollama, OpenRouter) with the same text mirrored in reasoning_details',
    sse: sse(
      chunk([choice({ role: 'assistant', content: '', reasoning: 'Think', reasoning_details: [{ type: 'reasoning.text', text: 'Think' }] })]),
      chunk([choice({ reasoning: 'ing.', reasoning_details: [{ type: 'reasoning.text', text: 'ing.' }] })]),
      chunk([choice({ content: 'Done', reasoning: null })]),
      chunk([choice({}, 'stop')]),
      DONE,
    ),
    expected: { ...empty, content: 'Done', reasoning_content: 'Thinking.' },
    end: 'done',
  },
  'reasoning-details-only': {
    quirk: 'reasoning only in reasoning_details (text and summary items; encrypted items skipped)',
    sse: sse(
      chunk([choice({ role: 'assistant', reasoning_details: [{ type: 'reasoning.summary', summary: 'Plan: ' }] })]),
      chunk([choice({ reasoning_details: [{ type: 'reasoning.text', text: 'add' }, { type: 'reasoning.encrypted', data: 'xyz' }] })]),
      chunk([choice({ content: '4' }, 'stop')]),
      DONE,
    ),
    expected: { ...empty, content: '4', reasoning_content: 'Plan: add' },
    end: 'done',
  },
  'tool-calls-several-in-one-delta': {
    quirk: 'two tool calls started in one delta, their argument fragments interleaved in the next deltas',
    sse: sse(
      chunk([choice({ role: 'assistant', content: null, tool_calls: [
        { index: 0, id: 'call_a', type: 'function', function: { name: 'add', arguments: '{"a":' } },
        { index: 1, id: 'call_b', type: 'function', function: { name: 'echo', arguments: '' } },
      ] })]),
      chunk([choice({ tool_calls: [{ index: 1, function: { arguments: '{"text":"hi"}' } }, { index: 0, function: { arguments: '1,"b":2}' } }] })]),
      chunk([choice({}, 'tool_calls')]),
      DONE,
    ),
    expected: { ...empty, tool_calls: [call('call_a', 'add', '{"a":1,"b":2}'), call('call_b', 'echo', '{"text":"hi"}')], finish_reason: 'tool_calls' },
    end: 'done',
  },
  'tool-calls-empty-continuation': {
    quirk: 'continuation fragments repeat id "" , type "" and name "" (ignored, not overwriting)',
    sse: sse(
      chunk([choice({ role: 'assistant', tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '' } }] })]),
      chunk([choice({ tool_calls: [{ index: 0, id: '', type: '', function: { name: '', arguments: '{"city":' } }] })]),
      chunk([choice({ tool_calls: [{ index: 0, id: '', function: { name: '', arguments: '"Paris"}' } }] })]),
      chunk([choice({}, 'tool_calls')]),
      DONE,
    ),
    expected: { ...empty, tool_calls: [call('call_1', 'get_weather', '{"city":"Paris"}')], finish_reason: 'tool_calls' },
    end: 'done',
  },
  'tool-calls-no-index-fragmented': {
    quirk: 'tool calls without index: a new id starts a call, fragments without an id continue the last one',
    sse: sse(
      chunk([choice({ role: 'assistant', tool_calls: [{ id: 'm1', function: { name: 'add', arguments: '{"a":1,' } }] })]),
      chunk([choice({ tool_calls: [{ function: { arguments: '"b":2}' } }] })]),
      chunk([choice({ tool_calls: [{ id: 'm2', function: { name: 'echo', arguments: '{"text":"x"}' } }] })]),
      chunk([choice({}, 'tool_calls')]),
      DONE,
    ),
    expected: { ...empty, tool_calls: [call('m1', 'add', '{"a":1,"b":2}'), call('m2', 'echo', '{"text":"x"}')], finish_reason: 'tool_calls' },
    end: 'done',
  },
  'tool-calls-reused-index': {
    quirk: 'parallel calls that all say index 0 but carry different ids (Gemini-style) stay separate calls',
    sse: sse(
      chunk([choice({ role: 'assistant', tool_calls: [{ index: 0, id: 'g1', type: 'function', function: { name: 'add', arguments: '{"a":1,"b":1}' } }] })]),
      chunk([choice({ tool_calls: [{ index: 0, id: 'g2', type: 'function', function: { name: 'add', arguments: '{"a":2,"b":2}' } }] })]),
      chunk([choice({}, 'tool_calls')]),
      DONE,
    ),
    expected: { ...empty, tool_calls: [call('g1', 'add', '{"a":1,"b":1}'), call('g2', 'add', '{"a":2,"b":2}')], finish_reason: 'tool_calls' },
    end: 'done',
  },
  'tool-calls-out-of-order': {
    quirk: 'the call with index 1 starts before the call with index 0: calls come out in index order',
    sse: sse(
      chunk([choice({ role: 'assistant', tool_calls: [{ index: 1, id: 'second', type: 'function', function: { name: 'echo', arguments: '{"text":"2"}' } }] })]),
      chunk([choice({ tool_calls: [{ index: 0, id: 'first', type: 'function', function: { name: 'echo', arguments: '{"text":"1"}' } }] })]),
      chunk([choice({}, 'tool_calls')]),
      DONE,
    ),
    expected: { ...empty, tool_calls: [call('first', 'echo', '{"text":"1"}'), call('second', 'echo', '{"text":"2"}')], finish_reason: 'tool_calls' },
    end: 'done',
  },
  'tool-call-arguments-object': {
    quirk: 'arguments sent as a JSON object instead of a string (JSON-stringified)',
    sse: sse(chunk([choice({ role: 'assistant', tool_calls: [{ index: 0, id: 'o1', function: { name: 'add', arguments: { a: 1, b: 2 } } }] }, 'tool_calls')]), DONE),
    expected: { ...empty, tool_calls: [call('o1', 'add', '{"a":1,"b":2}')], finish_reason: 'tool_calls' },
    end: 'done',
  },
  'finish-stop-with-tool-calls': {
    quirk: 'finish_reason "stop" although the step has tool calls (kept verbatim; the calls are kept)',
    sse: sse(
      chunk([choice({ role: 'assistant', tool_calls: [{ index: 0, id: 's1', type: 'function', function: { name: 'echo', arguments: '{"text":"a"}' } }] })]),
      chunk([choice({}, 'stop')]),
      DONE,
    ),
    expected: { ...empty, tool_calls: [call('s1', 'echo', '{"text":"a"}')], finish_reason: 'stop' },
    end: 'done',
  },
  'finish-missing': {
    quirk: 'no finish_reason at all, but data: [DONE] (accepted; finish_reason null)',
    sse: sse(chunk([choice({ role: 'assistant', content: 'ok' })]), DONE),
    expected: { ...empty, content: 'ok', finish_reason: null },
    end: 'done',
  },
  'usage-every-chunk': {
    quirk: 'usage in every chunk, growing; the last value wins',
    sse: sse(
      chunk([choice({ role: 'assistant', content: 'a' })], { usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 } }),
      chunk([choice({ content: 'b' })], { usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 } }),
      chunk([choice({}, 'stop')], { usage }),
      DONE,
    ),
    expected: { ...empty, content: 'ab', usage },
    end: 'done',
  },
  'usage-null-after-value': {
    quirk: 'a real usage, then usage:null in a later chunk (the real one is kept)',
    sse: sse(
      chunk([choice({ role: 'assistant', content: 'a' }, 'stop')], { usage }),
      chunk([], { usage: null }),
      DONE,
    ),
    expected: { ...empty, content: 'a', usage },
    end: 'done',
  },
  'usage-in-choice': {
    quirk: 'usage inside the choice object (Moonshot / Kimi)',
    sse: sse(chunk([choice({ role: 'assistant', content: 'k' })]), chunk([choice({}, 'stop', { usage })]), DONE),
    expected: { ...empty, content: 'k', usage },
    end: 'done',
  },
  'usage-in-x-groq-only': {
    quirk: 'usage only in x_groq.usage (older Groq)',
    sse: sse(chunk([choice({ role: 'assistant', content: 'g' }, 'stop')], { x_groq: { id: 'req_1', usage } }), DONE),
    expected: { ...empty, content: 'g', usage },
    end: 'done',
  },
  'other-choices-ignored': {
    quirk: 'n > 1: only choice 0 is assembled',
    sse: sse(
      chunk([choice({ role: 'assistant', content: 'zero' }), { index: 1, delta: { role: 'assistant', content: 'one' }, finish_reason: null }]),
      chunk([{ index: 1, delta: {}, finish_reason: 'length' }, choice({}, 'stop')]),
      DONE,
    ),
    expected: { ...empty, content: 'zero' },
    end: 'done',
  },
  'event-error': {
    quirk: 'an SSE `event: error` message mid-stream',
    sse: sse(chunk([choice({ role: 'assistant', content: 'par' })])) + 'event: error\ndata: {"error":{"message":"Overloaded","type":"server_error"}}\n\n' + DONE,
    error: { code: 'provider', message: 'Overloaded' },
  },
  'error-json-midstream': {
    quirk: 'an error object as a data message mid-stream (no choices)',
    sse: sse(chunk([choice({ role: 'assistant', content: 'par' })]), { error: { message: 'Rate limit exceeded upstream', code: 429 } }, DONE),
    error: { code: 'provider', message: 'Rate limit exceeded upstream' },
  },
  'invalid-json-data': {
    quirk: 'a data payload that is not JSON',
    sse: sse(chunk([choice({ role: 'assistant', content: 'a' })]), 'data: {"choices": [oops\n\n', DONE),
    error: { code: 'provider', message: 'not JSON' },
  },
  'no-done-after-finish': {
    quirk: 'no data: [DONE]: the body ends after the finish chunk (accepted)',
    sse: sse(chunk([choice({ role: 'assistant', content: 'fin' })]), chunk([choice({}, 'stop')], { usage })),
    expected: { ...empty, content: 'fin', usage },
    end: 'finished',
  },
  'cut-without-finish': {
    quirk: 'the body ends with neither finish_reason nor [DONE] (a cut: truncated)',
    sse: sse(chunk([choice({ role: 'assistant', content: 'half an ans' })])),
    expected: { ...empty, content: 'half an ans', finish_reason: null },
    end: 'truncated',
  },
  'crlf-line-endings': {
    quirk: 'CRLF line endings everywhere',
    sse: sse(chunk([choice({ role: 'assistant', content: 'cr' })]), chunk([choice({ content: 'lf' }, 'stop')]), DONE).replace(/\n/g, '\r\n'),
    expected: { ...empty, content: 'crlf' },
    end: 'done',
  },
  'cr-line-endings': {
    quirk: 'bare CR line endings (legal SSE)',
    sse: sse(chunk([choice({ role: 'assistant', content: 'c' })]), chunk([choice({ content: 'r' }, 'stop')]), DONE).replace(/\n/g, '\r'),
    expected: { ...empty, content: 'cr' },
    end: 'done',
  },
  'data-without-space': {
    quirk: '`data:` without the space, comments and an unknown named event in between',
    sse:
      ': keep-alive\n\n' +
      `data:${JSON.stringify(chunk([choice({ role: 'assistant', content: 'no' })]))}\n\n` +
      'event: ping\ndata: {}\n\n' +
      `:comment\ndata:${JSON.stringify(chunk([choice({ content: 'space' }, 'stop')]))}\n\n` +
      'data:[DONE]\n\n',
    expected: { ...empty, content: 'nospace' },
    end: 'done',
  },
  'multi-line-data': {
    quirk: 'one JSON chunk spread over several data: lines (joined with \\n, as SSE says)',
    sse: `data: {"choices":[{"index":0,\ndata: "delta":{"content":"multi"},\ndata: "finish_reason":"stop"}]}\n\n${DONE}`,
    expected: { ...empty, content: 'multi' },
    end: 'done',
  },
  'last-line-without-newline': {
    quirk: 'the body ends in `data: [DONE]` with no newline after it',
    sse: sse(chunk([choice({ role: 'assistant', content: 'end' }, 'stop')])) + 'data: [DONE]',
    expected: { ...empty, content: 'end' },
    end: 'done',
  },
  'after-done-ignored': {
    quirk: 'messages after data: [DONE] are ignored',
    sse: sse(chunk([choice({ role: 'assistant', content: 'kept' }, 'stop')]), DONE, chunk([choice({ content: ' dropped' })])),
    expected: { ...empty, content: 'kept' },
    end: 'done',
  },
  'think-tags-in-content': {
    quirk: 'reasoning inside the content as <think>…</think> (a server without a reasoning parser), tags split across chunks',
    sse: sse(
      chunk([choice({ role: 'assistant', content: '<thi' })]),
      chunk([choice({ content: 'nk>\nThe user greets' })]),
      chunk([choice({ content: '. Reply kindly.\n</th' })]),
      chunk([choice({ content: 'ink>\n\n' })]),
      chunk([choice({ content: 'Hello' })]),
      chunk([choice({ content: '!' }, 'stop')]),
      chunk([], { usage }),
      DONE,
    ),
    expected: { ...empty, reasoning_content: 'The user greets. Reply kindly.\n', content: 'Hello!', usage },
    end: 'done',
  },
  'think-close-tag-only': {
    quirk: 'content opening with </think> (the chat template prefilled <think>, the block was empty): the tag is dropped',
    sse: sse(chunk([choice({ role: 'assistant', content: '</think>\n\n' })]), chunk([choice({ content: 'Hi' }, 'stop')]), DONE),
    expected: { ...empty, content: 'Hi' },
    end: 'done',
  },
  'think-unclosed': {
    quirk: 'a think block cut by the token limit before </think>: all of it is reasoning, a partial closing tag too',
    sse: sse(chunk([choice({ role: 'assistant', content: '<think>Long thought' })]), chunk([choice({ content: ' </thi' }, 'length')]), DONE),
    expected: { ...empty, reasoning_content: 'Long thought </thi', finish_reason: 'length' },
    end: 'done',
  },
  'think-lookalike': {
    quirk: 'content starting with <thinking> (not the tag) stays content verbatim',
    sse: sse(chunk([choice({ role: 'assistant', content: '<thin' })]), chunk([choice({ content: 'king>x</thinking>' }, 'stop')]), DONE),
    expected: { ...empty, content: '<thinking>x</thinking>' },
    end: 'done',
  },
  'think-tags-with-reasoning-field': {
    quirk: 'reasoning_content sent by the provider first: tags in the content are not parsed (the provider separated them)',
    sse: sse(chunk([choice({ role: 'assistant', reasoning_content: 'parsed' })]), chunk([choice({ content: '<think>x</think>y' }, 'stop')]), DONE),
    expected: { ...empty, reasoning_content: 'parsed', content: '<think>x</think>y' },
    end: 'done',
  },
  'message-instead-of-delta': {
    quirk: 'a choice with a whole `message` instead of `delta`',
    sse: sse(chunk([{ index: 0, message: { role: 'assistant', content: 'whole', reasoning_content: 'why' }, finish_reason: 'stop' }]), DONE),
    expected: { ...empty, content: 'whole', reasoning_content: 'why' },
    end: 'done',
  },
};
