// What the author of a server sees when its stream breaks the event schema, and how unknown events reach
// the page: a line the schema rejects is warned about once per method and field (console) and given to the
// page as a pagent-error with code "decode"; events of unknown methods come as pagent-unknown-event.
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import type { PagentErrorDetail } from '../../../src/chat/events.js';
import { WireDecodeError } from '../../../src/errors.js';
import { $, answers, chatFixture, until } from './helpers.js';

const api = inject('apiUrl');
const line = (method: string, params: unknown): string => JSON.stringify({ jsonrpc: '2.0', method, params }) + '\n';
const ndjson = { 'Content-Type': 'application/x-ndjson' };
const STEP = { content: 'Hi', tool_calls: [], reasoning_content: '', usage: null };

/** A `src` URL that answers every POST with the next of `scripts`. */
const scripted = (scripts: unknown[]): string =>
  `${api}/wire/recorded/${crypto.randomUUID()}?s=${encodeURIComponent(JSON.stringify(scripts))}`;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('<pagent-chat src> and a server that breaks the event schema', () => {
  it('warns once per method and field, naming both, and dispatches one pagent-error (decode) for each', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const run = [
      line('RunBegin', { user_input: 'Q' }),
      line('TurnBegin', { turn: 0 }),
      line('TextDelta', { text: 'Hi' }),
      line('TurnEnd', { turn: 0 }), // no "stopped"
      line('TextDelta', { text: 7 }), // "text" is not a string
      line('TurnEnd', { turn: 1 }), // the same fault again: not told twice
      line('RunEnd', { ...STEP, stop_reason: 'no_tool_calls' }),
    ];
    const src = scripted([
      { headers: ndjson, chunks: run },
      { headers: ndjson, chunks: [line('RunBegin', { user_input: 'Q2' }), line('TurnEnd', { turn: 0 }), line('RunEnd', STEP)] },
    ]);
    const el = await chatFixture((c) => {
      c.src = src;
      c.wireLog = true;
    });
    const errors: PagentErrorDetail[] = [];
    el.addEventListener('pagent-error', (e) => errors.push(e.detail));
    el.send('Q');
    await until(() => !el.streaming && answers(el).at(-1) === 'Hi', 'the first run');
    el.send('Q2');
    await until(() => !el.streaming && el.shadowRoot!.querySelectorAll('[part~="user"]').length === 2, 'the second run');

    // the reporter is a chunk loaded on the first bad line: its warnings can come after the run ended
    await until(() => warn.mock.calls.length >= 2 && errors.length >= 2, 'the two warnings and errors');
    const told = warn.mock.calls.map((args) => String(args[0]));
    expect(told).toHaveLength(2);
    expect(told[0]).toContain('TurnEnd: missing "stopped" (line 4)');
    expect(told[0]).toContain(src);
    expect(told[0]).toContain('The line was skipped.');
    expect(told[0]).toContain('{"jsonrpc":"2.0","method":"TurnEnd","params":{"turn":0}}');
    expect(told[1]).toContain('TextDelta: "text" must be a string (line 5)');

    expect(errors.map((d) => d.error.name)).toEqual(['WireDecodeError', 'WireDecodeError']);
    expect(errors.every((d) => d.error instanceof WireDecodeError && d.error.code === 'decode' && d.error.reason === 'invalid-params')).toBe(true);
    expect(errors.map((d) => d.error.message)).toEqual(['TurnEnd: missing "stopped" (line 4)', 'TextDelta: "text" must be a string (line 5)']);
    // the good lines still rendered, and the wire log marks every bad line, the repeated ones too
    expect(answers(el)[0]).toBe('Hi');
    $<HTMLDetailsElement>(el, '[part="wire-log"]')!.open = true;
    await until(() => $(el, '[part="wire-log"] ol') !== null, 'the open wire log');
    expect(el.shadowRoot!.querySelectorAll('[part~="wire-line-error"]').length).toBe(4);
  });
});

describe('<pagent-chat> and events of unknown methods', () => {
  it('dispatches them as pagent-unknown-event, and only known events as pagent-event', async () => {
    const src = scripted([
      {
        headers: ndjson,
        chunks: [
          line('RunBegin', { user_input: 'Q' }),
          line('StateSnapshot', { counter: 1 }),
          line('TextDelta', { text: 'Hi' }),
          line('RunEnd', { ...STEP, stop_reason: 'no_tool_calls' }),
        ],
      },
    ]);
    const el = await chatFixture((c) => (c.src = src));
    const known: string[] = [];
    const unknown: unknown[] = [];
    el.addEventListener('pagent-event', (e) => known.push(e.detail.event.method));
    el.addEventListener('pagent-unknown-event', (e) => unknown.push(e.detail.event));
    el.send('Q');
    await until(() => !el.streaming && known.includes('RunEnd'), 'the run');
    expect(known).toEqual(['RunBegin', 'TextDelta', 'RunEnd']);
    expect(unknown).toEqual([{ method: 'StateSnapshot', params: { counter: 1 }, unknown: true }]);
  });
});
