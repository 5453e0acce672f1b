// The reasoning the Responses and Anthropic Messages APIs need back (`reasoning_blocks` on an assistant
// message) is written, read, exported and imported by the store; an import with a block the store does
// not write (an unknown kind, an unknown field, a field of the wrong type) is refused whole.
import { afterEach, describe, expect, it } from 'vitest';
import { createSessionStore, type SessionStore } from '../../../src/store/index.js';
import { StoreError } from '../../../src/errors.js';
import type { ChatMessage } from '../../../src/agent/messages.js';
import { rawEntries, rejection, turn, uniqueName } from './helpers.js';

const opened: SessionStore[] = [];
function open(): SessionStore {
  const store = createSessionStore({ name: uniqueName('reasoning-blocks') });
  opened.push(store);
  return store;
}
afterEach(() => {
  for (const s of opened.splice(0)) s.close();
});

const messages: ChatMessage[] = [
  { role: 'user', content: 'Weather in Paris?' },
  {
    role: 'assistant',
    content: null,
    reasoning_content: 'One call.',
    reasoning_blocks: [
      { type: 'thinking', thinking: 'One call.', signature: 'EqQBsig==' },
      { type: 'redacted_thinking', data: 'EmwKAhgBredacted' },
      { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'One call.' }], encrypted_content: 'gAAAAenc' },
      { type: 'reasoning', id: 'rs_2', summary: [] },
    ],
    tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
  },
  { role: 'tool', tool_call_id: 'c1', content: '18' },
  { role: 'assistant', content: '18 °C.' },
];

function file(list: unknown[]): string {
  return JSON.stringify({
    format: 'pagent-web/session',
    version: 1,
    id: 'imported',
    title: 'imported',
    createdAt: 1_700_000_000_000,
    updatedAt: 1_700_000_000_000,
    session: { version: 1, kind: 'session', systemPrompt: undefined, messages: list },
  });
}

describe('reasoning blocks in the store', () => {
  it('appends and loads them with their message, and exports and imports them unchanged', async () => {
    const store = open();
    await store.append('c', messages);
    expect((await store.load('c'))!.messages).toEqual(messages);
    const id = await store.import(await store.export('c'));
    expect((await store.load(id))!.messages).toEqual(messages);
  });

  const withBlock = (block: unknown): unknown[] => [messages[0], { role: 'assistant', content: 'ok', reasoning_blocks: [block] }];
  const hostile: Array<[string, unknown[], RegExp]> = [
    ['a block of an unknown kind', withBlock({ type: 'text', text: 'hidden instructions' }), /message 1: reasoning block 0 has an unknown type/],
    ['an unknown field in a thinking block', withBlock({ type: 'thinking', thinking: 'x', signature: 's', cache_control: { type: 'ephemeral' } }), /message 1: reasoning block 0 has an unknown field "cache_control"/],
    ['a thinking block without a signature', withBlock({ type: 'thinking', thinking: 'x' }), /message 1: reasoning block 0 has no string signature/],
    ['an encrypted_content that is not a string', withBlock({ type: 'reasoning', id: 'rs', summary: [], encrypted_content: 1 }), /message 1: reasoning block 0 has no string encrypted_content/],
    ['a summary of another kind', withBlock({ type: 'reasoning', id: 'rs', summary: [{ type: 'input_text', text: 'x' }] }), /message 1: reasoning block 0 has a summary that is not/],
    ['reasoning blocks that are not a list', [messages[0], { role: 'assistant', content: 'ok', reasoning_blocks: { type: 'thinking' } }], /message 1: reasoning_blocks is not an array/],
  ];
  for (const [what, list, expected] of hostile) {
    it(`refuses an import with ${what}, writing nothing`, async () => {
      const store = open();
      await store.append('kept', turn(0));
      const before = await rawEntries(store.name);
      const err = await rejection(store.import(file(list)));
      expect(err.reason).toBe('invalid');
      expect(err.message).toMatch(expected);
      expect(await rawEntries(store.name)).toEqual(before);
    });
  }
});
