import { describe, expect, it } from 'vitest';
import { messageTarget } from '../../../src/chat/conversations/message-target.js';
import type { ChatMessage } from '../../../src/agent/messages.js';

const messages: ChatMessage[] = [
  { role: 'system', content: 'terse' },
  { role: 'user', content: 'first' },
  { role: 'assistant', content: 'one', reasoning_content: 'hmm' },
  { role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AA==' } }] },
  { role: 'assistant', content: null, tool_calls: [
    { id: 'a', type: 'function', function: { name: 'x', arguments: '{}' } },
    { id: 'b', type: 'function', function: { name: 'y', arguments: '{}' } },
  ] },
  { role: 'tool', tool_call_id: 'a', content: 'ra' },
  { role: 'tool', tool_call_id: 'b', content: 'rb' },
  { role: 'assistant', content: 'two' },
];

describe('messageTarget (a stored message → its row in the timeline)', () => {
  it('finds user messages, answers and tool cards by kind and ordinal', () => {
    expect(messages.map((_, i) => messageTarget(messages, i))).toEqual([
      undefined,
      { kind: 'user', n: 0 },
      { kind: 'answer', n: 0 },
      { kind: 'user', n: 1 },
      { kind: 'tool', n: 0 },
      { kind: 'tool', n: 0 },
      { kind: 'tool', n: 1 },
      { kind: 'answer', n: 1 },
    ]);
  });

  it('gives nothing for an index past the end', () => {
    expect(messageTarget(messages, 99)).toBeUndefined();
  });
});
