import { describe, expect, it } from 'vitest';
import { decodeEventLine } from '../../../src/index.js';

describe('the SDK in Chromium', () => {
  it('decodes a line with raw UTF-8 and U+2028', () => {
    const e = decodeEventLine('{"jsonrpc": "2.0", "method": "TextDelta", "params": {"text": "日本\u2028😀"}}');
    expect(e).toEqual({ method: 'TextDelta', params: { text: '日本\u2028😀' } });
    expect(typeof indexedDB).toBe('object');
  });
});
