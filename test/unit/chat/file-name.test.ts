import { describe, expect, it } from 'vitest';
import { fileNameFor } from '../../../src/chat/conversations/file-name.js';

describe('fileNameFor', () => {
  it('keeps a plain title, CJK included', () => {
    expect(fileNameFor('Weather in Tokyo', 'md')).toBe('Weather in Tokyo.md');
    expect(fileNameFor('你好世界 日本語', 'json')).toBe('你好世界 日本語.json');
  });

  it('drops path separators, reserved and control characters and bidi overrides', () => {
    expect(fileNameFor('../../etc/passwd', 'md')).toBe('etc passwd.md');
    expect(fileNameFor('a\\b:c*d?e"f<g>h|i', 'md')).toBe('a b c d e f g h i.md');
    expect(fileNameFor('line\nbreak\u0000nul\u202Egnp.exe', 'json')).toBe('line break nul gnp.exe.json');
    expect(fileNameFor('a\u061Cb\u2067c\u200Fd', 'md')).toBe('a b c d.md');
  });

  it('is never empty or only dots', () => {
    expect(fileNameFor('', 'md')).toBe('conversation.md');
    expect(fileNameFor(' ... ', 'md')).toBe('conversation.md');
    expect(fileNameFor('///', 'json')).toBe('conversation.json');
  });

  it('cuts long titles to 80 characters without splitting an emoji', () => {
    const name = fileNameFor('😀'.repeat(100), 'md');
    expect(Array.from(name.slice(0, -3))).toHaveLength(80);
    expect(name.slice(0, -3)).toBe('😀'.repeat(80));
  });
});
