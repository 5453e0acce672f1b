import { describe, expect, it } from 'vitest';
import { Agent } from '../../../../src/agent/agent.js';
import { clock, DEFAULT_TOOLS, region } from '../../../../src/agent/tools/builtins.js';
import { Memory } from '../../../../src/agent/sessions/memory.js';
import { Session } from '../../../../src/agent/sessions/session.js';
import { countTokens, countTokensDetail, formatContext } from '../../../../src/agent/sessions/tokens.js';
import type { ChatMessage } from '../../../../src/agent/messages.js';
import { call, scriptedModel } from '../scripted-model.js';

const ctx = { signal: new AbortController().signal, tool_call_id: 't' };

describe('built-in tools', () => {
  it('clock: ISO 8601 in UTC with a +00:00 offset by default, the current instant', async () => {
    const before = Date.now();
    const text = (await clock.execute({}, ctx)) as string;
    const after = Date.now();
    expect(text).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/);
    const at = Date.parse(text);
    expect(at).toBeGreaterThanOrEqual(before);
    expect(at).toBeLessThanOrEqual(after);
  });

  it('clock utc=false: local time with the offset of the environment, the same instant', async () => {
    const before = Date.now();
    const text = (await clock.execute({ utc: false }, ctx)) as string;
    const offset = -new Date().getTimezoneOffset();
    const sign = offset < 0 ? '-' : '+';
    const hh = String(Math.floor(Math.abs(offset) / 60)).padStart(2, '0');
    const mm = String(Math.abs(offset) % 60).padStart(2, '0');
    expect(text.endsWith(`${sign}${hh}:${mm}`)).toBe(true);
    expect(Date.parse(text)).toBeGreaterThanOrEqual(before);
  });

  it('region: locale, languages, IANA time zone and offset as JSON, from Intl', async () => {
    const info = JSON.parse((await region.execute({}, ctx)) as string);
    expect(info.timezone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(typeof info.locale).toBe('string');
    expect(Array.isArray(info.languages)).toBe(true);
    expect(info.utc_offset).toMatch(/^[+-]\d\d:\d\d$/);
  });

  it('DEFAULT_TOOLS is [clock, region] and the model can call clock through an Agent', async () => {
    expect(DEFAULT_TOOLS.map((t) => t.name)).toEqual(['clock', 'region']);
    const llm = scriptedModel([{ toolCalls: [call('c1', 'clock', '{}')] }, { text: ['ok'] }]);
    const end = await new Agent({ llm, tools: DEFAULT_TOOLS }).run('time?');
    expect(end.content).toBe('ok');
    const result = llm.requests[1]!.messages.at(-1)!;
    expect(result.role).toBe('tool');
    expect(result.content).toMatch(/\+00:00$/);
    expect(llm.requests[0]!.tools?.map((t) => t.function.name)).toEqual(['clock', 'region']);
  });
});

describe('Memory', () => {
  it('adds, removes, renders as text and round-trips through JSON', () => {
    const notes = new Memory();
    expect(notes.add('User prefers metric units.')).toBe(0);
    expect(notes.add('  ')).toBe(-1);
    notes.add('Lives in Kyoto.');
    notes.add('Writes in 日本語.');
    expect(notes.remove(1)).toBe('Lives in Kyoto.');
    expect(notes.asText()).toBe('- User prefers metric units.\n- Writes in 日本語.');
    const copy = Memory.fromJSON(JSON.parse(JSON.stringify(notes)));
    expect(copy.notes).toEqual(notes.notes);
    expect(() => notes.remove(5)).toThrow(RangeError);
    expect(() => Memory.fromJSON({ version: 2, notes: [] } as never)).toThrow(TypeError);
  });

  it('reaches the model through the system prompt', async () => {
    const notes = new Memory(['User prefers metric units.']);
    const llm = scriptedModel([{ text: ['20 °C'] }]);
    await new Agent({ llm, session: new Session(`You are helpful.\n\nNotes:\n${notes.asText()}`) }).run('Weather?');
    expect(llm.requests[0]!.messages[0]).toEqual({ role: 'system', content: 'You are helpful.\n\nNotes:\n- User prefers metric units.' });
  });
});

describe('token helpers', () => {
  const messages: ChatMessage[] = [
    { role: 'system', content: 'Be brief.' },                 // 9 ASCII chars → 3, +4 overhead
    { role: 'user', content: '你好世界' },                       // 4 CJK → 4, +4
    { role: 'assistant', content: null, tool_calls: [call('c1', 'add', '{"a":1}')] }, // 0 + name 1 + args 2 + 3, +4
    { role: 'tool', tool_call_id: 'c1', content: '2' },        // 1, +4
  ];

  it('countTokens counts a text, or messages with their overhead', () => {
    expect(countTokens('hello world')).toBe(3);
    expect(countTokens('🙂🙂')).toBe(2);
    expect(countTokens(messages)).toBe(7 + 8 + 10 + 5);
    expect(countTokens('abcd', { countTokens: (t) => t.length * 10 })).toBe(40);
  });

  it('countTokensDetail splits by role and counts tool schemas', () => {
    const add = { type: 'function' as const, function: { name: 'add', description: 'Add.', parameters: { type: 'object' } } };
    const detail = countTokensDetail(messages, { tools: [add], maxTokens: 1000 });
    const schemaTokens = countTokens(JSON.stringify(add));
    expect(detail).toEqual({ total: 30 + schemaTokens, system: 7, user: 8, assistant: 10, tool: 5, tools: schemaTokens, messages: 4, maxTokens: 1000 });
  });

  it('formatContext prints the total, the share of the window and the parts', () => {
    expect(formatContext(messages, { maxTokens: 128_000 })).toBe(
      'context: 30 / 128,000 tokens (0.0%), 4 messages\n  system 7 · user 8 · assistant 10 · tool 5 · tools 0',
    );
    expect(formatContext([{ role: 'user', content: 'x'.repeat(4000) }])).toBe(
      'context: 1,004 tokens, 1 message\n  system 0 · user 1,004 · assistant 0 · tool 0 · tools 0',
    );
  });
});
