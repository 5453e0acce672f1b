import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { handleScriptedCompletion, languageOf, scriptedStep } from '../../../demo/scripted-model.js';
import { demoTools } from '../../../demo/tools.js';

/** The answer text the scripted model streams for `messages` (its SSE `content` deltas joined). */
async function streamedText(messages: unknown[]): Promise<{ content: string; reasoning: string }> {
  const server = createServer((req, res) => void handleScriptedCompletion(req, res, { chunkDelayMs: 0 }));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const { port } = server.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}/v1/chat/completions`, { method: 'POST', body: JSON.stringify({ messages }) });
    let content = '';
    let reasoning = '';
    for (const line of (await res.text()).split('\n')) {
      if (!line.startsWith('data: {')) continue;
      const delta = (JSON.parse(line.slice(6)) as { choices: Array<{ delta: { content?: string; reasoning_content?: string } }> }).choices[0]?.delta;
      content += delta?.content ?? '';
      reasoning += delta?.reasoning_content ?? '';
    }
    return { content, reasoning };
  } finally {
    server.close();
  }
}

const weatherResult = (city: string) => ({ role: 'tool', content: JSON.stringify({ city, temp: 21, unit: 'celsius' }) });

// The demo's scripted model understands its own sample questions in every language of the demo.
describe('the demo scripted model', () => {
  it('asks the weather tool for the city asked about, named as the question names it (the card shows it)', () => {
    expect(scriptedStep([{ role: 'user', content: '東京の天気は？' }])).toEqual({ kind: 'tool', name: 'get_weather', args: { city: '東京' } });
    expect(scriptedStep([{ role: 'user', content: '东京的天气怎么样？' }])).toEqual({ kind: 'tool', name: 'get_weather', args: { city: '东京' } });
    expect(scriptedStep([{ role: 'user', content: "What's the weather in Tokyo?" }])).toEqual({ kind: 'tool', name: 'get_weather', args: { city: 'Tokyo' } });
    expect(scriptedStep([{ role: 'user', content: 'パリの天気は？' }])).toEqual({ kind: 'tool', name: 'get_weather', args: { city: 'パリ' } });
  });

  it('asks about Beijing for 北京天气, and about any city a Chinese or Japanese question names (not Paris)', () => {
    expect(scriptedStep([{ role: 'user', content: '北京天气' }])).toEqual({ kind: 'tool', name: 'get_weather', args: { city: '北京' } });
    expect(scriptedStep([{ role: 'user', content: '北京の天気は？' }])).toEqual({ kind: 'tool', name: 'get_weather', args: { city: '北京' } });
    expect(scriptedStep([{ role: 'user', content: '广州的天气怎么样？' }])).toEqual({ kind: 'tool', name: 'get_weather', args: { city: '广州' } });
    expect(scriptedStep([{ role: 'user', content: '大阪の天気は？' }])).toEqual({ kind: 'tool', name: 'get_weather', args: { city: '大阪' } });
    const zh = scriptedStep([{ role: 'user', content: '北京天气' }, { role: 'assistant' }, weatherResult('北京')]);
    expect((zh as { text: string }).text).toContain('所以北京现在是 **21°C**。');
  });

  it('has the weather tool know a city by its name in each language', async () => {
    type Execute = (args: { city: string }, ctx: { signal: AbortSignal; tool_call_id: string }) => unknown;
    const weather = demoTools.find((t) => t.name === 'get_weather') as unknown as { execute: Execute };
    const temps = [];
    for (const city of ['Tokyo', '東京', '东京', 'Paris', 'パリ', '巴黎', 'Beijing', '北京']) {
      temps.push((JSON.parse(String(await weather.execute({ city }, { signal: new AbortController().signal, tool_call_id: 'c' }))) as { temp: number }).temp);
    }
    expect(temps).toEqual([21, 21, 21, 18, 18, 18, 9, 9]);
  });

  it('answers in the language of the question', () => {
    const ja = scriptedStep([{ role: 'user', content: '東京の天気は？' }, { role: 'assistant' }, weatherResult('Tokyo')]);
    expect(ja).toMatchObject({ kind: 'text' });
    expect((ja as { text: string }).text).toContain('東京は今 **21°C** です。');
    const zh = scriptedStep([{ role: 'user', content: '东京的天气怎么样？' }, { role: 'assistant' }, weatherResult('Tokyo')]);
    expect((zh as { text: string }).text).toContain('所以东京现在是 **21°C**。');
    const en = scriptedStep([{ role: 'user', content: "What's the weather in Tokyo?" }, { role: 'assistant' }, weatherResult('Tokyo')]);
    expect((en as { text: string }).text).toContain('So it is **21° celsius in Tokyo** right now.');
  });

  it('understands the other sample questions in Chinese and Japanese', () => {
    expect(scriptedStep([{ role: 'user', content: '请先思考再回答。' }])).toMatchObject({ kind: 'text', reasoning: expect.stringContaining('思考') });
    expect(scriptedStep([{ role: 'user', content: '考えてから答えてください。' }])).toMatchObject({ kind: 'text', reasoning: expect.stringContaining('推論') });
    expect(scriptedStep([{ role: 'user', content: '请故意失败一次。' }])).toMatchObject({ kind: 'error' });
    expect(scriptedStep([{ role: 'user', content: 'わざと失敗してください。' }])).toMatchObject({ kind: 'error' });
    expect(scriptedStep([{ role: 'user', content: '一小时后提醒我起来活动一下。' }])).toMatchObject({ kind: 'tool', name: 'create_reminder' });
    expect(scriptedStep([{ role: 'user', content: '1時間後にストレッチするようリマインドして。' }])).toMatchObject({ kind: 'tool', name: 'create_reminder' });
  });

  it('says what happened to a reminder the user approved, denied, or could not be asked about', () => {
    const ask = { role: 'user', content: 'Remind me to stretch in an hour.' };
    const after = (content: string) => scriptedStep([ask, { role: 'assistant' }, { role: 'tool', content }]);
    expect(after('{"id":"reminder-1","text":"x","in_minutes":60}')).toEqual({ kind: 'text', text: 'Done: the reminder is set.' });
    expect(after('create_reminder error: denied by the user')).toEqual({ kind: 'text', text: 'You declined, so no reminder was set.' });
    expect((after('create_reminder error: denied (no approve function is configured)') as { text: string }).text).toContain('cannot ask you for approval');
  });

  it('continues an answer sent back as the last message (Continue after a reload), from where it stops', async () => {
    for (const question of ['Please think before you answer.', '考えてから答えてください。', 'Hello there']) {
      const whole = await streamedText([{ role: 'user', content: question }]);
      const cut = Math.floor(whole.content.length / 3);
      const partial = whole.content.slice(0, whole.content.lastIndexOf(' ', cut) + 1) || whole.content.slice(0, 2);
      const rest = await streamedText([{ role: 'user', content: question }, { role: 'assistant', content: partial }]);
      expect(partial + rest.content).toBe(whole.content);
      expect(rest.reasoning).toBe('');
    }
  });

  it('tells the languages apart by their scripts', () => {
    expect([languageOf('東京の天気は？'), languageOf('东京的天气怎么样？'), languageOf('Hello')]).toEqual(['ja', 'zh', 'en']);
  });
});
