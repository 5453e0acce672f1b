import { expect as chaiExpect } from '@open-wc/testing';
import { describe, expect, inject, it } from 'vitest';
import type { PagentChat } from '../../../src/chat/element.js';
import { WireClient } from '../../../src/wire/client.js';
import pagentText from '../../fixtures/pagent/text.ndjson?raw';
import pagentMaxTurns from '../../fixtures/pagent/max_turns.ndjson?raw';
import pagentParallel from '../../fixtures/pagent/parallel_tools.ndjson?raw';
import pagentReasoning from '../../fixtures/pagent/reasoning.ndjson?raw';
import pagentToolError from '../../fixtures/pagent/tool_error.ndjson?raw';
import pagentToolStream from '../../fixtures/pagent/tool_stream.ndjson?raw';
import pagentUnicode from '../../fixtures/pagent/unicode.ndjson?raw';
import v4MaxTurns from '../../fixtures/pagentv4/max_turns.ndjson?raw';
import v4Reasoning from '../../fixtures/pagentv4/reasoning.ndjson?raw';
import v4Text from '../../fixtures/pagentv4/text.ndjson?raw';
import v4ToolStream from '../../fixtures/pagentv4/tool_stream.ndjson?raw';
import { $, $$, answers, chatFixture, toolCards, until } from './helpers.js';

const api = inject('apiUrl');

interface Line {
  method: string;
  params: Record<string, unknown>;
}

/** What the capture says the timeline must show, read from its raw lines (not from our decoder). */
function expectedFromLines(text: string) {
  const lines = text.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Line);
  const lastTurn = lines.map((l) => l.method).lastIndexOf('TurnBegin');
  const finalAnswer = lines
    .slice(lastTurn)
    .filter((l) => l.method === 'TextDelta')
    .map((l) => l.params['text'] as string)
    .join('');
  const calls = lines.filter((l) => l.method === 'ToolCallBegin').map((l) => l.params['name'] as string);
  const failed = lines.filter((l) => l.method === 'ToolResult' && l.params['ok'] === false).length;
  const reasoning = lines.filter((l) => l.method === 'ReasoningDelta').map((l) => l.params['text'] as string).join('');
  return { finalAnswer, calls, failed, lineCount: lines.length, reasoning };
}

const squash = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** Sends one message to `src` and resolves when the run ended. */
async function runSrc(src: string, setup?: (el: PagentChat) => void): Promise<PagentChat> {
  const el = await chatFixture((c) => {
    c.src = src;
    c.wireLog = true;
    setup?.(c);
  });
  const ended = new Promise<void>((resolve) => el.addEventListener('pagent-run-end', () => resolve(), { once: true }));
  el.send('Hello');
  await ended;
  await el.updateComplete;
  return el;
}

const pagentCases: Array<[string, string]> = [
  ['pagent/text.ndjson', pagentText],
  ['pagent/max_turns.ndjson', pagentMaxTurns],
  ['pagent/parallel_tools.ndjson', pagentParallel],
  ['pagent/reasoning.ndjson', pagentReasoning],
  ['pagent/tool_error.ndjson', pagentToolError],
  ['pagent/tool_stream.ndjson', pagentToolStream],
  ['pagentv4/max_turns.ndjson', v4MaxTurns],
  ['pagentv4/reasoning.ndjson', v4Reasoning],
  ['pagentv4/text.ndjson', v4Text],
  ['pagentv4/tool_stream.ndjson', v4ToolStream],
];

describe('<pagent-chat src> over the corpus', () => {
  it.each(pagentCases)('%s renders its final answer, one card per tool call, and every raw line in the log', async (path, raw) => {
    const want = expectedFromLines(raw);
    const el = await runSrc(`${api}/wire/corpus/${path}?chunkMax=7&seed=3`);
    const shown = answers(el);
    expect(squash(shown[shown.length - 1] ?? '')).toBe(squash(want.finalAnswer));
    expect(toolCards(el).map(([name]) => name)).toEqual(want.calls);
    expect(toolCards(el).filter(([, status]) => status === 'failed').length).toBe(want.failed);
    expect(toolCards(el).filter(([, status]) => status === 'pending').length).toBe(0);
    expect($(el, '[part="error"]')).toBeNull();
    if (want.reasoning) expect($(el, '[part="reasoning-text"]')!.textContent).toBe(want.reasoning);
    $<HTMLDetailsElement>(el, '[part="wire-log"]')!.open = true;
    await until(() => $$(el, '[part~="wire-line"]').length === want.lineCount, 'the wire log lines');
    expect($$(el, '[part~="wire-line-error"]').length).toBe(0);
  });

  it('pagent/unicode.ndjson keeps emoji, CJK, RTL and HTML-looking text as text', async () => {
    const el = await runSrc(`${api}/wire/corpus/pagent/unicode.ndjson?chunkMax=5`);
    expect(expectedFromLines(pagentUnicode).calls).toEqual(toolCards(el).map(([n]) => n));
    const text = answers(el).join('\n');
    for (const piece of ['Hello 世界', '🌍👩‍💻 café naïve', '</script><b>html</b>', '日本語かな、한국어, עברית.', '北京 🌧']) {
      expect(text).toContain(piece);
    }
    expect($$(el, '[part~="answer-text"] b, [part~="answer-text"] script').length).toBe(0);
  });

  it('victor SSE example renders reasoning, the shell card and the answer', async () => {
    const el = await runSrc(`${api}/wire/corpus/victor/docs_api_reference_sse_example.ndjson?as=sse`);
    expect(answers(el)).toEqual(['The failure is caused by…']);
    expect(toolCards(el)).toEqual([['shell', 'ok']]);
    expect($(el, '[part="tool-arguments"]')!.textContent).toBe('{\n  "cmd": "pytest -x"\n}');
    expect($(el, '[part="tool-result"]')!.textContent).toBe('1 failed…');
  });

  it('victor per-event reference shows the partial answer, the tool with its duration and the provider error', async () => {
    const el = await runSrc(`${api}/wire/corpus/victor/docs_api_reference_per_event.ndjson?as=sse`);
    expect(answers(el).map(squash)).toEqual(['The bug is in the retry loop:']);
    expect(toolCards(el)).toEqual([['read', 'ok']]);
    expect($(el, '[part="tool-duration"]')!.textContent).toBe('120 ms');
    const errors = $$(el, '[part="error"]');
    expect(errors.length).toBe(1);
    expect(errors[0]!.querySelector('.error-message')!.textContent).toBe('provider timeout after 120s');
    expect(errors[0]!.querySelector('.error-code')!.textContent).toBe('provider');
  });

  it('victor test cases: two runs, six cards, the provider error and the truncated end', async () => {
    const el = await runSrc(`${api}/wire/corpus/victor/test_wire_events_cases.ndjson`);
    await until(() => $$(el, '[part="error"]').length === 2, 'both errors');
    expect(toolCards(el)).toEqual([
      ['read', 'ok'],
      ['shell', 'failed'],
      ['read', 'ok'],
      ['read', 'ok'],
      ['shell', 'failed'],
      ['read', 'cancelled'],
    ]);
    const codes = $$(el, '[part="error"] .error-code').map((n) => n.textContent);
    expect(codes).toEqual(['provider', 'truncated']);
    expect($$(el, '[part="error"] .error-message')[0]!.textContent).toBe('boom');
  });

  it('an HTTP error from src is shown with its status, and a page served as HTML as a decode error', async () => {
    const script = { status: 500, headers: { 'Content-Type': 'text/plain' }, chunks: ['model overloaded'] };
    const el = await runSrc(`${api}/wire/script`, (c) => (c.body = () => script));
    expect($(el, '[part="error"] .error-code')!.textContent).toBe('http · 500');
    expect($(el, '[part="error"] .error-message')!.textContent).toContain('model overloaded');
    const html = { headers: { 'Content-Type': 'text/html' }, chunks: ['<!doctype html><title>Login</title>'] };
    const el2 = await runSrc(`${api}/wire/script`, (c) => (c.body = () => html));
    await until(() => $(el2, '[part="error"]') !== null, 'the decode error');
    expect($(el2, '[part="error"] .error-code')!.textContent).toContain('decode');
    await chaiExpect(el2).to.be.accessible();
  });
});

describe('<pagent-chat src> wire log', () => {
  it('shows each raw line as received and marks the one that failed to decode', async () => {
    const chunks = [
      '{"jsonrpc": "2.0", "method": "RunBegin", "params": {"user_input": "x"}}\n',
      'this is not json <b>at all</b>\n',
      '{"jsonrpc": "2.0", "method": "TextDelta", "params": {"text": "still fine"}}\n',
      '{"jsonrpc": "2.0", "method": "RunEnd", "params": {"content": "still fine", "tool_calls": [], "reasoning_content": "", "usage": null}}\n',
    ];
    const el = await runSrc(`${api}/wire/script`, (c) => (c.body = () => ({ headers: { 'Content-Type': 'application/x-ndjson' }, chunks })));
    expect(answers(el)).toEqual(['still fine']);
    $<HTMLDetailsElement>(el, '[part="wire-log"]')!.open = true;
    await until(() => $$(el, '[part~="wire-line"]').length === 4, 'the wire log lines');
    const lines = $$(el, '[part~="wire-line"]');
    expect(lines.map((l) => l.querySelector('code')!.textContent)).toEqual(chunks.map((c) => c.trimEnd()));
    const bad = $$(el, '[part~="wire-line-error"]');
    expect(bad.length).toBe(1);
    expect(bad[0]!.textContent).toContain('this is not json');
    expect(bad[0]!.textContent).toContain('decode error');
    expect($$(el, '[part="wire-log"] b').length).toBe(0);
  });
});

describe('<pagent-chat> with a WireClient', () => {
  it('streams a run from the client property the same way as from src', async () => {
    const el = await chatFixture((c) => (c.client = new WireClient(`${api}/wire/corpus/pagent/tool_error.ndjson?chunkMax=3`)));
    const ended = new Promise((r) => el.addEventListener('pagent-run-end', r, { once: true }));
    el.send('Run the explode tool');
    await ended;
    await el.updateComplete;
    expect(answers(el)).toEqual([squash(expectedFromLines(pagentToolError).finalAnswer)]);
    expect(toolCards(el)).toEqual([['explode', 'failed']]);
  });
});

describe('<pagent-chat src> requests', () => {
  it('POSTs {"message": text} as JSON', async () => {
    const el = await chatFixture((c) => (c.src = `${api}/wire/echo`));
    const begin = new Promise<string>((resolve) =>
      el.addEventListener('pagent-event', (e) => {
        if (e.detail.event.method === 'RunBegin') resolve((e.detail.event.params as { user_input: string }).user_input);
      }),
    );
    el.send('Bonjour');
    const seen = JSON.parse(await begin) as { method: string; body: string; headers: Record<string, string> };
    expect(seen.method).toBe('POST');
    expect(JSON.parse(seen.body)).toEqual({ message: 'Bonjour' });
    expect(seen.headers['content-type']).toContain('application/json');
  });

  it('passes the X-Session-Id the server sent to the next request body', async () => {
    const calls: Array<[string, string | undefined]> = [];
    const lines = [
      '{"jsonrpc":"2.0","method":"RunBegin","params":{"user_input":"x"}}\n',
      '{"jsonrpc":"2.0","method":"RunEnd","params":{"content":"ok","tool_calls":[],"reasoning_content":"","usage":null}}\n',
    ];
    const el = await chatFixture((c) => {
      c.src = `${api}/wire/script`;
      c.body = (text, sessionId) => {
        calls.push([text, sessionId]);
        return { headers: { 'Content-Type': 'application/x-ndjson', 'X-Session-Id': 'sess-42' }, chunks: lines };
      };
    });
    for (const text of ['one', 'two']) {
      const ended = new Promise((r) => el.addEventListener('pagent-run-end', r, { once: true }));
      el.send(text);
      await ended;
    }
    expect(calls).toEqual([
      ['one', undefined],
      ['two', 'sess-42'],
    ]);
  });

  it('removing the element mid-stream aborts the request and the server sees the connection go', async () => {
    const id = `chat-remove-${Math.random().toString(36).slice(2)}`;
    const chunks = [
      '{"jsonrpc":"2.0","method":"RunBegin","params":{"user_input":"x"}}\n',
      ...Array.from({ length: 200 }, (_, i) => `{"jsonrpc":"2.0","method":"TextDelta","params":{"text":"w${i} "}}\n`),
    ];
    const el = await chatFixture((c) => {
      c.src = `${api}/wire/script`;
      c.body = () => ({ headers: { 'Content-Type': 'application/x-ndjson' }, chunks, delayMs: 20, end: 'hang', id });
    });
    el.send('go');
    await until(() => (answers(el)[0] ?? '').includes('w3'), 'a few deltas');
    el.remove();
    let record: { closed?: boolean; finishedByServer?: boolean; writes?: number } = {};
    for (let i = 0; i < 100 && record.closed !== true; i++) {
      record = (await (await fetch(`${api}/wire/closes?id=${id}`)).json()) as typeof record;
      if (record.closed !== true) await new Promise((r) => setTimeout(r, 20));
    }
    expect(record.closed).toBe(true);
    expect(record.finishedByServer).toBe(false);
    expect(record.writes).toBeLessThan(chunks.length);
  });
});
