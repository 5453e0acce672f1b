import { describe, expect, it } from 'vitest';
import { formatByteSize } from '../../../src/chat/byte-size.js';

const KiB = 1024;
const MiB = 1024 * KiB;
const GiB = 1024 * MiB;

describe('formatByteSize', () => {
  it('names the binary units it computes in', () => {
    expect(formatByteSize(0)).toBe('0 B');
    expect(formatByteSize(1000)).toBe('1,000 B');
    expect(formatByteSize(KiB)).toBe('1 KiB');
    expect(formatByteSize(1.5 * KiB)).toBe('1.5 KiB');
    expect(formatByteSize(20 * MiB)).toBe('20 MiB');
    expect(formatByteSize(50 * MiB)).toBe('50 MiB');
    expect(formatByteSize(1.25 * GiB)).toBe('1.3 GiB');
  });

  it('rounds up at the decimal it shows, so a size over a limit never reads as the limit', () => {
    expect(formatByteSize(50 * MiB + 1)).toBe('50.1 MiB');
    expect(formatByteSize(5000)).toBe('4.9 KiB');
    for (const limit of [1000, 20 * MiB, 50 * MiB, 2 * GiB]) {
      for (const over of [1, 7, 1000, 51_200]) expect(formatByteSize(limit + over)).not.toBe(formatByteSize(limit));
    }
  });

  it("writes the locale's digits and separators", () => {
    expect(formatByteSize(1000, 'de')).toBe('1.000 B');
    expect(formatByteSize(1.5 * KiB, 'de')).toBe('1,5 KiB');
    expect(formatByteSize(50 * MiB + 1, 'ja')).toBe('50.1 MiB');
    expect(formatByteSize(12_345, 'zh-CN')).toBe('12.1 KiB');
  });
});
