import { describe, expect, it } from 'vitest';
import { safeUrl } from '../../../src/chat/safe-url.js';

describe('safeUrl', () => {
  it.each([
    ['https://example.com/a?b=1&c=2#d', 'https://example.com/a?b=1&c=2#d'],
    ['http://example.com', 'http://example.com'],
    ['HTTPS://EXAMPLE.COM/', 'HTTPS://EXAMPLE.COM/'],
    ['mailto:someone@example.com', 'mailto:someone@example.com'],
    ['MailTo:someone@example.com', 'MailTo:someone@example.com'],
    ['/docs/page', '/docs/page'],
    ['docs/page.html', 'docs/page.html'],
    ['../up', '../up'],
    ['#section', '#section'],
    ['?q=1', '?q=1'],
    ['//cdn.example.com/x', '//cdn.example.com/x'],
  ])('allows %j', (input, expected) => {
    expect(safeUrl(input)).toBe(expected);
  });

  it.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' javascript:alert(1)',
    '\x01javascript:alert(1)',
    '\x00javascript:alert(1)',
    'java\nscript:alert(1)',
    'java\tscript:alert(1)',
    'java\rscript:alert(1)',
    'java\u200bscript:alert(1)',
    'java\u00adscript:alert(1)',
    '\ufeffjavascript:alert(1)',
    'jav&#x09;ascript:alert(1)',
    'jav&#9;ascript:alert(1)',
    'jav&#x9ascript:alert(1)',
    'jav&Tab;ascript:alert(1)',
    'java&NewLine;script:alert(1)',
    'javascript&colon;alert(1)',
    'javascript&#58;alert(1)',
    'javascript&#x3A;alert(1)',
    '&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)',
    '&#x6A;avascript:alert(1)',
    'javascript&amp;colon;alert(1)',
    'java&unknownentity;script:alert(1)',
    'vbscript:msgbox(1)',
    'VBScript:msgbox(1)',
    'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
    'data:image/svg+xml,<svg onload=alert(1)>',
    'file:///etc/passwd',
    'blob:https://example.com/uuid',
    'about:blank',
    'ftp://example.com',
    'C:\\Windows',
    '',
    '   ',
  ])('refuses %j', (input) => {
    expect(safeUrl(input)).toBeNull();
  });

  it('returns the cleaned string that it checked, without whitespace or control characters', () => {
    expect(safeUrl(' https://exa\tmple.com/\x07a ')).toBe('https://example.com/a');
    expect(safeUrl('https&colon;//example.com/')).toBe('https://example.com/');
  });

  it('returns a string the browser URL parser reads with an allowed scheme', () => {
    for (const input of ['https://a.example/', 'mailto:x@y.example', 'http:evil.example', '\\\\host\\share']) {
      const out = safeUrl(input);
      expect(out).not.toBeNull();
      expect(['http:', 'https:', 'mailto:']).toContain(new URL(out!, 'https://base.example/').protocol);
    }
  });
});
