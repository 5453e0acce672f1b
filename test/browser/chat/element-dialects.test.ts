import { expect as chaiExpect } from '@open-wc/testing';
import { describe, expect, inject, it } from 'vitest';
import type { PagentChat } from '../../../src/chat/element.js';
import { WireClient } from '../../../src/wire/client.js';
import type { UnknownEvent, WireEvent } from '../../../src/wire/events.js';
import { $, $$, answers, chatFixture, toolCards, until } from './helpers.js';

const api = inject('apiUrl');
const squash = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** Sends one message to `src` with the wire log on, and resolves when the run ended. */
async function runSrc(src: string): Promise<PagentChat> {
  const el = await chatFixture((c) => {
    c.src = src;
    c.wireLog = true;
  });
  const ended = new Promise<void>((resolve) => el.addEventListener('pagent-run-end', () => resolve(), { once: true }));
  el.send('Hello');
  await ended;
  await el.updateComplete;
  return el;
}

/** The raw documents of a response, as the wire log should list them (SSE data, `[DONE]` aside). */
async function documentsOf(url: string): Promise<string[]> {
  const text = await (await fetch(url)).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
    .map((line) => line.slice('data: '.length));
}

async function expectWireLog(el: PagentChat, url: string): Promise<void> {
  const docs = await documentsOf(url);
  $<HTMLDetailsElement>(el, '[part="wire-log"]')!.open = true;
  await until(() => $$(el, '[part~="wire-line"]').length === docs.length, 'the wire log lines');
  expect($$(el, '[part~="wire-line"] code').map((n) => n.textContent)).toEqual(docs);
  expect($$(el, '[part~="wire-line-error"]').length).toBe(0);
}

describe('<pagent-chat src> renders all five protocols', () => {
  it('pagent, pagentv4 and Victor (their captures), AG-UI and the AI SDK (their producers): answer, tool cards, no error', async () => {
    const cases: Array<[string, string, Array<[string, string]>]> = [
      [`${api}/wire/corpus/pagent/tool_error.ndjson?chunkMax=7`, 'The tool failed: disk full.', [['explode', 'failed']]],
      [`${api}/wire/corpus/pagentv4/tool_stream.ndjson?chunkMax=7`, 'It is 18°C and sunny in Paris.', [['get_weather', 'ok']]],
      [`${api}/wire/corpus/victor/docs_api_reference_sse_example.ndjson?as=sse`, 'The failure is caused by…', [['shell', 'ok']]],
      [
        `${api}/wire/dialect/ag-ui/tools?chunkMax=7`,
        'It is 18 °C.',
        [
          ['get_time', 'ok'],
          ['get_weather', 'ok'],
        ],
      ],
      [
        `${api}/wire/dialect/ai-sdk/tools?chunkMax=7`,
        'It is 18 °C.',
        [
          ['get_weather', 'ok'],
          ['fail', 'failed'],
          ['get_weather', 'failed'],
        ],
      ],
    ];
    for (const [url, answer, cards] of cases) {
      const el = await runSrc(url);
      expect(squash(answers(el).at(-1) ?? ''), url).toBe(answer);
      expect(toolCards(el), url).toEqual(cards);
      expect($(el, '[part="error"]'), url).toBeNull();
      el.remove();
    }
  });

  it('AG-UI: reasoning, text and every raw line in the wire log', async () => {
    const url = `${api}/wire/dialect/ag-ui/reasoning?chunkMax=5`;
    const el = await runSrc(url);
    expect(answers(el)).toEqual(['Answer.']);
    expect($(el, '[part="reasoning-text"]')!.textContent).toBe('Think first.');
    await expectWireLog(el, url);
    await chaiExpect(el).to.be.accessible();
  });

  it('AG-UI: RUN_ERROR shows the partial answer and the provider error', async () => {
    const el = await runSrc(`${api}/wire/dialect/ag-ui/error?chunkMax=3`);
    expect(answers(el).map(squash)).toEqual(['Partial']);
    expect($$(el, '[part="error"] .error-message').map((n) => n.textContent)).toEqual(['model overloaded']);
    expect($(el, '[part="error"] .error-code')!.textContent).toBe('provider');
  });

  it('AI SDK: reasoning, the answer and every raw line in the wire log', async () => {
    const url = `${api}/wire/dialect/ai-sdk/reasoning?chunkMax=5`;
    const el = await runSrc(url);
    expect(answers(el)).toEqual(['Answer.']);
    expect($(el, '[part="reasoning-text"]')!.textContent).toBe('Think first.');
    await expectWireLog(el, url);
  });

  it('AI SDK: an error mid-answer keeps the text after it and shows the error once; an abort shows the stop mark', async () => {
    const failed = await runSrc(`${api}/wire/dialect/ai-sdk/errorMidAnswer?chunkMax=4`);
    expect(answers(failed).map(squash)).toEqual(['Partial rest']);
    expect($$(failed, '[part="error"] .error-message').map((n) => n.textContent)).toEqual(['model overloaded']);
    failed.remove();
    const aborted = await runSrc(`${api}/wire/dialect/ai-sdk/aborted`);
    expect(answers(aborted).map(squash)).toEqual(['Stopped here']);
    expect($(aborted, '[part="stopped"]')).not.toBeNull();
    expect($(aborted, '[part="error"]')).toBeNull();
  });
});

describe('WireClient and the AI SDK header', () => {
  it('reads a response as the AI SDK when it carries x-vercel-ai-ui-message-stream, even when its first part is one detection does not know', async () => {
    const body = [
      'data: {"type":"reasoning-file","url":"data:,x","mediaType":"text/plain"}\n\n',
      'data: {"type":"start"}\n\n',
      'data: {"type":"text-delta","id":"t","delta":"hi"}\n\n',
      'data: {"type":"finish"}\n\n',
      'data: [DONE]\n\n',
    ].join('');
    const run = async (headers: Record<string, string>): Promise<Array<WireEvent | UnknownEvent>> => {
      const script = { headers: { 'Content-Type': 'text/event-stream', ...headers }, chunks: [body] };
      const client = new WireClient(`${api}/wire/script?s=${encodeURIComponent(JSON.stringify(script))}`, { includeUnknown: true });
      const out: Array<WireEvent | UnknownEvent> = [];
      for await (const event of client.stream()) out.push(event);
      return out;
    };
    const withHeader = await run({ 'x-vercel-ai-ui-message-stream': 'v1' });
    expect(withHeader.map((e) => e.method)).toEqual(['reasoning-file', 'RunBegin', 'TurnBegin', 'TextDelta', 'TurnEnd', 'RunEnd']);
    // without the header the first part reads as a legacy Victor document and the rest fails to decode as Victor
    const withoutHeader = await run({});
    expect(withoutHeader.some((e) => e.method === 'TextDelta')).toBe(false);
  });
});
