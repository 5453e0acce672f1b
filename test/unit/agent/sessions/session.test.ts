import { describe, expect, it } from 'vitest';
import { CompactingSession, estimateTokens, Session, SlidingWindowSession, type SummaryModel } from '../../../../src/agent/sessions/session.js';
import type { ChatMessage } from '../../../../src/agent/messages.js';

const user = (content: string): ChatMessage => ({ role: 'user', content });
const answer = (content: string): ChatMessage => ({ role: 'assistant', content });
const toolTurn = (id: string, result: string): ChatMessage[] => [
  { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'echo', arguments: '{}' } }] },
  { role: 'tool', tool_call_id: id, content: result },
];
// one token per character keeps the budgets below easy to follow
const perChar = (text: string): number => text.length;

describe('estimateTokens', () => {
  it('counts about four ASCII characters per token', () => {
    expect(estimateTokens('abcd'.repeat(25))).toBe(25);
  });

  it('counts one token per CJK, kana and hangul character', () => {
    expect(estimateTokens('测试日本語かな한국어')).toBe(10);
  });

  it('counts mixed Latin and CJK text as the sum of both rules', () => {
    expect(estimateTokens('Hello 世界')).toBe(2 + 2);
  });

  it('counts an emoji as a token of its own', () => {
    expect(estimateTokens('🌍')).toBe(1);
  });
});

describe('Session', () => {
  it('sends the system prompt first, then the history', async () => {
    const session = new Session('Be brief.');
    session.append(user('Hi'), answer('Hello'));
    expect(await session.requestMessages()).toEqual([{ role: 'system', content: 'Be brief.' }, user('Hi'), answer('Hello')]);
    expect(session.messages).toEqual([user('Hi'), answer('Hello')]);
  });

  it('sends no system message when it has no system prompt', async () => {
    const session = new Session();
    session.append(user('Hi'));
    expect(await session.requestMessages()).toEqual([user('Hi')]);
  });

  it('round-trips through toJSON and fromJSON, reasoning and tool calls included', () => {
    const session = new Session('sys');
    session.append(user('q'), { role: 'assistant', content: 'a', reasoning_content: 'thought' }, ...toolTurn('c1', 'r'));
    const json = JSON.parse(JSON.stringify(session.toJSON())) as ReturnType<Session['toJSON']>;
    expect(json).toEqual({ version: 1, kind: 'session', systemPrompt: 'sys', messages: session.messages });
    const copy = Session.fromJSON(json);
    expect(copy.systemPrompt).toBe('sys');
    expect(copy.messages).toEqual(session.messages);
  });

  it('names its kind in toJSON for each session class', () => {
    expect(new SlidingWindowSession('s', { maxTokens: 10 }).toJSON().kind).toBe('sliding-window');
    expect(new CompactingSession('s', { llm: summaryModel('x').model, compactAtTokens: 10 }).toJSON().kind).toBe('compacting');
  });

  it('rejects JSON that is not a version 1 session', () => {
    expect(() => Session.fromJSON({ version: 2 } as never)).toThrow(TypeError);
  });

  it('rebuilds a session of 200,000 messages from JSON (no spread of the list into one call)', async () => {
    const messages = Array.from({ length: 200_000 }, (_, i) => (i % 2 === 0 ? user(`q${i}`) : answer(`a${i}`)));
    const copy = Session.fromJSON({ version: 1, kind: 'session', systemPrompt: 'sys', messages });
    expect(copy.messages).toHaveLength(200_000);
    expect(copy.messages[199_999]).toBe(messages[199_999]);
    expect(await copy.requestMessages()).toHaveLength(200_001);
  });

  it('keeps toJSON a copy that later appends do not change', () => {
    const session = new Session();
    const json = session.toJSON();
    session.append(user('later'));
    expect(json.messages).toEqual([]);
  });
});

describe('SlidingWindowSession', () => {
  it('sends the newest messages that fit, after the system prompt', async () => {
    // system "S" = 1 + 4 overhead; each message below = 10 chars + 4 overhead = 14
    const session = new SlidingWindowSession('S', { maxTokens: 5 + 14 * 2, countTokens: perChar });
    session.append(user('0123456789'), answer('abcdefghij'), user('ABCDEFGHIJ'));
    expect(await session.requestMessages()).toEqual([{ role: 'system', content: 'S' }, answer('abcdefghij'), user('ABCDEFGHIJ')]);
    expect(session.messages).toHaveLength(3);
  });

  it('never splits an assistant tool_calls message from its tool results', () => {
    const session = new SlidingWindowSession(undefined, { maxTokens: 40, countTokens: perChar });
    session.append(user('question'), ...toolTurn('c1', 'x'.repeat(20)), user('next'));
    const window = session.window();
    expect(window[0]?.role).not.toBe('tool');
    expect(window).toEqual([user('next')]);
    session.append(...toolTurn('c2', 'y'));
    expect(session.window()).toEqual([user('next'), ...toolTurn('c2', 'y')]);
  });

  it('keeps the newest message group even when it alone is over budget', () => {
    const session = new SlidingWindowSession('system prompt', { maxTokens: 3, countTokens: perChar });
    session.append(user('old'), user('a long newest message'));
    expect(session.window()).toEqual([user('a long newest message')]);
  });

  it('uses the built-in estimate by default, so CJK text fills the window faster than Latin text', () => {
    const latin = new SlidingWindowSession(undefined, { maxTokens: 40 });
    const cjk = new SlidingWindowSession(undefined, { maxTokens: 40 });
    for (let i = 0; i < 10; i++) {
      latin.append(user('abcdefghijkl'));
      cjk.append(user('一二三四五六七八九十十一'));
    }
    expect(latin.window().length).toBeGreaterThan(cjk.window().length);
  });

  it('refuses a non-positive budget', () => {
    expect(() => new SlidingWindowSession('s', { maxTokens: 0 })).toThrow(RangeError);
  });
});

function summaryModel(summary: string, fail = false): { model: SummaryModel; requests: ChatMessage[][] } {
  const requests: ChatMessage[][] = [];
  return {
    requests,
    model: {
      async *stream(request) {
        requests.push(request.messages);
        if (fail) throw new Error('model down');
        yield { type: 'text', text: summary };
        yield { type: 'step', step: { content: summary } };
      },
    },
  };
}

describe('CompactingSession', () => {
  it('summarises everything before the last user message into one message', async () => {
    const { model, requests } = summaryModel('They talked about Paris.');
    const session = new CompactingSession('sys', { llm: model, compactAtTokens: 1000 });
    session.append(user('Weather in Paris?'), ...toolTurn('c1', '18C'), answer('18C in Paris.'), user('And Tokyo?'));
    expect(await session.compact()).toBe(true);
    expect(session.messages).toEqual([
      { role: 'user', content: 'Summary of the earlier conversation:\nThey talked about Paris.' },
      user('And Tokyo?'),
    ]);
    const prompt = requests[0]!.map((m) => m.content).join('\n');
    expect(prompt).toContain('Weather in Paris?');
    expect(prompt).toContain('18C in Paris.');
    expect(prompt).toContain('[tool call echo({})]');
  });

  it('compacts before a request only when over compactAtTokens', async () => {
    const { model, requests } = summaryModel('short');
    const session = new CompactingSession(undefined, { llm: model, compactAtTokens: 20, countTokens: perChar });
    session.append(user('hi'), answer('hello'));
    await session.requestMessages();
    expect(requests).toHaveLength(0);
    session.append(user('x'.repeat(30)), answer('y'.repeat(30)), user('last'));
    expect(session.shouldCompact).toBe(true);
    const sent = await session.requestMessages();
    expect(requests).toHaveLength(1);
    expect(sent).toEqual([{ role: 'user', content: 'Summary of the earlier conversation:\nshort' }, user('last')]);
  });

  it('leaves the history unchanged and sends it when the summary request fails', async () => {
    const { model } = summaryModel('', true);
    const session = new CompactingSession(undefined, { llm: model, compactAtTokens: 1, countTokens: perChar });
    session.append(user('one'), answer('two'), user('three'));
    expect(await session.requestMessages()).toEqual([user('one'), answer('two'), user('three')]);
    await expect(session.compact()).rejects.toThrow('model down');
    expect(session.messages).toHaveLength(3);
  });

  it('has nothing to compact when the history is one exchange', async () => {
    const { model, requests } = summaryModel('s');
    const session = new CompactingSession(undefined, { llm: model, compactAtTokens: 1 });
    session.append(user('only'));
    expect(await session.compact()).toBe(false);
    expect(requests).toHaveLength(0);
  });
});
