/**
 * A `TextDelta` line in pagent's or `JSON.stringify`'s spelling is read by parsing its text's value alone
 * (docs/wire.md#pagent-and-pagentv4). These tests hold that reading to the full one: every line it accepts
 * parses in full to exactly the same notification, every usual line without a quote in its text is
 * accepted, and a body decodes to the same events whatever the spelling.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canonicalTextDelta } from '../../../src/wire/codec.js';
import { seededRandom } from '../../helpers/random.js';
import { decodeChunks, EMPTY_STEP, rpc } from './decode-helpers.js';

const PAGENT = '{"jsonrpc": "2.0", "method": "TextDelta", "params": {"text": ';
const COMPACT = '{"jsonrpc":"2.0","method":"TextDelta","params":{"text":';
/** A delta as pagent writes it (Python's `json.dumps`), and as `JSON.stringify` writes it. */
const pagentDelta = (text: string): string => `${PAGENT}${JSON.stringify(text)}}}`;
const compactDelta = (text: string): string => `${COMPACT}${JSON.stringify(text)}}}`;
/** The same notification with its keys in another order: only the full reading takes it. */
const reorderedDelta = (text: string): string => `{"method": "TextDelta", "params": {"text": ${JSON.stringify(text)}}, "jsonrpc": "2.0"}`;

/** Texts of every kind a model writes, and the ones JSON escapes. */
const TEXTS = [
  '',
  'token 1 ',
  'It is 18°C ',
  '日本語のテキスト',
  '😀 emoji',
  'tab\there',
  'line\nbreak',
  'back\\slash',
  'a "quoted" word',
  '"',
  '\\"',
  '}}',
  '"}}',
  '\u0000\u001f\u007f',
  '\u2028\u2029',
  'lone \ud800 surrogate',
  'lone \udc00 low',
  ' '.repeat(300),
];

describe('canonicalTextDelta', () => {
  it('reads every TextDelta line of the pagent captures as the full reading does', () => {
    const dir = new URL('../../fixtures/pagent/', import.meta.url);
    let read = 0;
    for (const name of readdirSync(dir).filter((n) => n.endsWith('.ndjson'))) {
      for (const line of readFileSync(new URL(name, dir), 'utf8').split('\n')) {
        if (!line.includes('"TextDelta"')) continue;
        const full = JSON.parse(line) as { params: { text: string } };
        expect(canonicalTextDelta(line), line).toEqual(full.params.text.includes('"') ? undefined : full.params);
        read++;
      }
    }
    expect(read).toBeGreaterThan(10);
  });

  it('reads a text of any kind in both spellings, and leaves one with a quote to the full reading', () => {
    for (const text of TEXTS) {
      for (const line of [pagentDelta(text), compactDelta(text)]) {
        expect(canonicalTextDelta(line), line).toEqual(text.includes('"') ? undefined : { text });
      }
    }
    // escapes a producer may choose: \u sequences for any character, a surrogate pair spelled out
    expect(canonicalTextDelta(`${PAGENT}"caf\\u00e9 \\ud83d\\ude00 \\/"}}`)).toEqual({ text: 'café 😀 /' });
  });

  it('takes nothing but the usual spellings of a well-formed TextDelta', () => {
    const notTaken = [
      reorderedDelta('a'),
      `${PAGENT}"a", "index": 2}}`,
      `${PAGENT}"a"}, "id": 1}`,
      `${PAGENT}"a"}} `,
      `${PAGENT}1}}`,
      `${PAGENT}null}}`,
      `${PAGENT}"a}}`,
      `${PAGENT}"a\\x"}}`,
      `${PAGENT}"raw \u0001 control"}}`,
      `${PAGENT}"a" "b"}}`,
      `${PAGENT}}}`,
      PAGENT,
      `${PAGENT.replace('TextDelta', 'ReasoningDelta')}"a"}}`,
      `{"jsonrpc": "1.0", "method": "TextDelta", "params": {"text": "a"}}`,
      `{"jsonrpc": "2.0", "method": "TextDelta", "params": {"text":"a"}}`,
    ];
    for (const line of notTaken) expect(canonicalTextDelta(line), line).toBeUndefined();
  });

  it('never takes a line the full reading reads otherwise (20,000 seeded mutations of usual lines)', () => {
    const random = seededRandom(26);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    const alphabet = ['"', '\\', '}', '{', ',', ':', ' ', '0', 'a', 'u', '\u0000', '\n', 'é', '\ud800', '[', ']', 'null'];
    const quoteless = TEXTS.filter((t) => !t.includes('"'));
    let taken = 0;
    let refused = 0;
    for (let i = 0; i < 20_000; i++) {
      let line = pick([pagentDelta, compactDelta])(pick(quoteless));
      // one to three edits anywhere, the end and the text's value most of all
      for (let edits = 1 + Math.floor(random() * 3); edits > 0; edits--) {
        const at = random() < 0.6 ? line.length - Math.floor(random() * 12) : Math.floor(random() * (line.length + 1));
        const cut = Math.max(0, Math.min(line.length, at));
        const op = random();
        if (op < 0.4) line = line.slice(0, cut) + pick(alphabet) + line.slice(cut);
        else if (op < 0.8) line = line.slice(0, cut) + line.slice(cut + 1);
        else line = line.slice(0, cut) + pick(alphabet) + line.slice(cut + 1);
      }
      const got = canonicalTextDelta(line);
      if (got === undefined) {
        refused++;
        continue;
      }
      taken++;
      // toEqual fails on any key the full reading has and the quick one does not report
      expect(JSON.parse(line), line).toEqual({ jsonrpc: '2.0', method: 'TextDelta', params: got });
      expect(typeof got.text).toBe('string');
    }
    // the mutations reach both sides of the line
    expect(taken).toBeGreaterThan(1000);
    expect(refused).toBeGreaterThan(1000);
  });
});

describe('the decoder, whatever the spelling', () => {
  it('gives the same events for a body in either usual spelling and in another key order, cut run included', () => {
    const texts = TEXTS.concat(Array.from({ length: 200 }, (_, i) => `token ${i} `));
    const body = (delta: (t: string) => string): string =>
      [
        rpc('RunBegin', { user_input: 'q' }),
        rpc('TurnBegin', { turn: 0 }),
        ...texts.map(delta),
        rpc('StepEnd', { ...EMPTY_STEP, content: 'step' }),
        ...texts.slice(0, 30).map(delta),
        rpc('RunError', { message: 'boom', code: 'provider' }),
        ...texts.slice(0, 5).map(delta),
      ].join('\n') + '\n';
    const reference = decodeChunks([body(reorderedDelta)]);
    expect(reference.errors).toEqual([]);
    // the cut run's RunEnd carries the text since the step ended, error held to the end
    expect(reference.events.at(-1)).toEqual({
      method: 'RunEnd',
      params: {
        content: texts.slice(0, 30).join('') + texts.slice(0, 5).join(''),
        tool_calls: [],
        reasoning_content: '',
        usage: null,
        stop_reason: 'error',
        turn: 0,
      },
    });
    for (const delta of [pagentDelta, compactDelta]) {
      const out = decodeChunks([body(delta)]);
      expect(out.errors).toEqual([]);
      expect(out.events).toEqual(reference.events);
    }
  });

  it('reports a bad delta in the usual spelling as the full reading does', () => {
    const lines = [rpc('RunBegin', { user_input: 'q' }), `${PAGENT}1}}`, `${PAGENT}"a}}`, `${PAGENT}"a", "index": 2}}`];
    const out = decodeChunks([lines.join('\n') + '\n']);
    expect(out.errors.map((e) => [e.reason, e.lineNumber])).toEqual([
      ['invalid-params', 2],
      ['invalid-json', 3],
    ]);
    expect(out.events.filter((e) => e.method === 'TextDelta')).toEqual([{ method: 'TextDelta', params: { text: 'a', index: 2 } }]);
  });
});
