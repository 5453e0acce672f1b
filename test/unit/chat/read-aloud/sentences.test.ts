import { describe, expect, it } from 'vitest';
import { SentenceReader, speakableLine } from '../../../../src/chat/read-aloud/sentences.js';

/** Feeds `text` in pieces of `size` characters; returns every sentence given out, in order. */
function read(text: string, size: number): string[] {
  const reader = new SentenceReader();
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(...reader.push(text.slice(i, i + size)));
  out.push(...reader.end());
  return out;
}

const ANSWER = [
  '# Weather today',
  '',
  'It is **sunny** in Tokyo. See [the forecast](https://example.com/f?x=1) for more! Is it warm?',
  'Yes, about 21 °C.',
  '',
  '```js',
  'console.log("never read. Really.");',
  '```',
  '',
  '- Bring a hat.',
  '- Water: https://example.com/water is a link',
  '',
  '東京は晴れです。明日も晴れ！傘はいらない？',
  '',
  '> Quoted `code` text',
].join('\n');

const SENTENCES = [
  'Weather today',
  'It is sunny in Tokyo.',
  'See the forecast for more!',
  'Is it warm?',
  'Yes, about 21 °C.',
  'Bring a hat.',
  'Water: is a link',
  '東京は晴れです。',
  '明日も晴れ！',
  '傘はいらない？',
  'Quoted code text',
];

describe('SentenceReader', () => {
  it('gives out each sentence once, in order, without code blocks, URLs or Markdown syntax', () => {
    expect(read(ANSWER, ANSWER.length)).toEqual(SENTENCES);
  });

  it('gives out the same sentences whatever the pieces the answer streams in', () => {
    for (const size of [1, 2, 3, 5, 7, 13, 64]) expect(read(ANSWER, size), `pieces of ${size}`).toEqual(SENTENCES);
  });

  it('gives out a sentence as soon as it is finished, before its line or paragraph ends', () => {
    const reader = new SentenceReader();
    expect(reader.push('It is sunny')).toEqual([]);
    // the end mark alone is not enough ("3.14" goes on): a space after it finishes the sentence
    expect(reader.push('.')).toEqual([]);
    expect(reader.push(' It is')).toEqual(['It is sunny.']);
    expect(reader.push(' warm. Pi is 3.')).toEqual(['It is warm.']);
    expect(reader.push('14 today')).toEqual([]);
    expect(reader.push('。次')).toEqual(['Pi is 3.14 today。']);
    expect(reader.end()).toEqual(['次']);
  });

  it('waits for a link, a code span or a fence to finish before speaking what is around it', () => {
    const reader = new SentenceReader();
    expect(reader.push('Read [the. docs')).toEqual([]);
    expect(reader.push('](https://x.example/a. b) now. ')).toEqual(['Read the.', 'docs now.']);
    expect(reader.push('\n`')).toEqual([]);
    expect(reader.push('``\nnot read. Ever.\n')).toEqual([]);
    expect(reader.push('```\nAfter.')).toEqual([]);
    expect(reader.end()).toEqual(['After.']);
  });

  it('never reads an indented code block after a blank line, nor a table rule', () => {
    expect(read('Intro.\n\n    const x = 1. y = 2.\n\n| a | b |\n|---|---|\n| one | two |', 4)).toEqual(['Intro.', 'a b', 'one two']);
  });
});

describe('speakableLine', () => {
  it('keeps link text and drops images, autolinks, bare URLs, HTML tags and emphasis marks', () => {
    expect(speakableLine('See ![logo](x.png) [**docs**](https://a.example) <https://b.example> www.c.example <b>now</b> ~~old~~ _it_')).toBe('See docs now old _it_');
  });
});
