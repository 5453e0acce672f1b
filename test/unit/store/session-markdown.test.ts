import { describe, expect, it } from 'vitest';
import { conversationToMarkdown } from '../../../src/index.js';
import type { ChatMessage } from '../../../src/agent/messages.js';

const messages: ChatMessage[] = [
  { role: 'system', content: 'Be terse.' },
  { role: 'user', content: [
    { type: 'text', text: 'What is in this picture? 这是什么？' },
    { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
    { type: 'file', file: { filename: 'notes\n.md', file_data: 'data:text/markdown;base64,SGVsbG8=' } },
  ] },
  { role: 'assistant', content: null, reasoning_content: 'look first\nthen answer', tool_calls: [
    { id: 'c1', type: 'function', function: { name: 'look', arguments: '{"zoom":2,"where":"東京"}' } },
    { id: 'c2', type: 'function', function: { name: 'broken', arguments: '{not json' } },
  ] },
  { role: 'tool', tool_call_id: 'c1', content: 'a cat ```sitting``` on a mat' },
  { role: 'tool', tool_call_id: 'c2', content: 'error' },
  { role: 'assistant', content: 'A **cat**.' },
];

describe('conversationToMarkdown', () => {
  it('writes the title, role headings, tool calls with JSON arguments and fenced results, named attachments', () => {
    const md = conversationToMarkdown({ title: 'Pictures\n# not a heading', messages });
    expect(md).toBe(
      [
        '# Pictures # not a heading',
        '## User',
        'What is in this picture? 这是什么？',
        '*Attached image*',
        '*Attached file: notes .md*',
        '## Assistant',
        '**Tool call: look**',
        '```json\n{\n  "zoom": 2,\n  "where": "東京"\n}\n```',
        '**Tool call: broken**',
        '```\n{not json\n```',
        '**Tool result: look**',
        '````\na cat ```sitting``` on a mat\n````',
        '**Tool result: broken**',
        '```\nerror\n```',
        '## Assistant',
        'A **cat**.',
      ].join('\n\n') + '\n',
    );
  });

  it('never writes attachment data', () => {
    const md = conversationToMarkdown({ messages });
    expect(md).not.toContain('base64');
    expect(md).not.toContain('SGVsbG8');
  });

  it('takes an export file, labels in another language, and optionally the system prompt and reasoning', () => {
    const md = conversationToMarkdown(
      { title: '图片', session: { version: 1, kind: 'session', systemPrompt: 'Be kind.', messages: messages.slice(1, 3) } },
      { labels: { user: '用户', assistant: '助手', toolCall: '工具调用：{name}', system: '系统', reasoning: '推理' }, systemPrompt: true, reasoning: true },
    );
    expect(md.startsWith('# 图片\n\n## 系统\n\nBe kind.\n\n## 用户\n\n')).toBe(true);
    expect(md).toContain('## 助手\n\n> **推理**\n> look first\n> then answer\n\n**工具调用：look**');
  });

  it('fences a tool result of 200,000 backtick runs (a longer fence than its longest run)', () => {
    const result = '`a'.repeat(199_999) + '````b';
    const md = conversationToMarkdown({ messages: [{ role: 'tool', tool_call_id: 'c1', content: result }] });
    const bar = '`'.repeat(5);
    expect(md).toContain(`\n\n${bar}\n${result}\n${bar}\n`);
  });

  it('writes an empty conversation as just its title', () => {
    expect(conversationToMarkdown({ title: 'Empty', messages: [] })).toBe('# Empty\n');
  });
});
