import { expect } from 'vitest';
import type { ChatMessage } from '../../src/index.js';

/**
 * Asserts the Chat Completions rule the next request depends on: every assistant `tool_calls` message is
 * followed directly by the results of all its calls, in call order.
 */
export function expectValidHistory(messages: readonly ChatMessage[]): void {
  messages.forEach((m, i) => {
    if (m.role !== 'assistant' || !m.tool_calls?.length) return;
    const ids = m.tool_calls.map((c) => c.id);
    const next = messages.slice(i + 1, i + 1 + ids.length);
    expect(next.map((r) => (r.role === 'tool' ? r.tool_call_id : `<${r.role}>`))).toEqual(ids);
  });
}
