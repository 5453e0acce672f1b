import { describe, expect, it } from 'vitest';
import { cdp } from 'vitest/browser';
import { $, chatFixture } from './helpers.js';

/**
 * A real Enter key press through the Chrome DevTools Protocol (the browser's own input pipeline). While
 * composing, an IME consumes the key's character, so that press carries no text.
 */
async function pressEnter(composing = false): Promise<void> {
  const key = { key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13 };
  await cdp().send('Input.dispatchKeyEvent', composing ? { type: 'rawKeyDown', ...key } : { type: 'keyDown', ...key, text: '\r' });
  await cdp().send('Input.dispatchKeyEvent', { type: 'keyUp', ...key });
}

describe('<pagent-chat> composer with a real IME composition (CDP input)', () => {
  it('does not send on Enter while composing, and sends the committed text on the Enter after compositionend', async () => {
    const el = await chatFixture();
    const input = $<HTMLTextAreaElement>(el, '[part="input"]')!;
    const sent: string[] = [];
    const composition: string[] = [];
    el.addEventListener('pagent-send', (e) => sent.push(e.detail.text));
    input.addEventListener('compositionstart', () => composition.push('start'));
    input.addEventListener('compositionend', (e) => composition.push(`end ${e.data}`));
    input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') composition.push(`Enter composing=${e.isComposing}`);
    });
    input.focus();

    await cdp().send('Input.imeSetComposition', { text: 'にほん', selectionStart: 3, selectionEnd: 3 });
    await pressEnter(true);
    expect(composition).toEqual(['start', 'Enter composing=true']);
    expect(sent).toEqual([]);
    expect(input.value).toBe('にほん');

    await cdp().send('Input.insertText', { text: '日本' });
    expect(composition.at(-1)).toBe('end 日本');
    expect(input.value).toBe('日本');
    expect(sent).toEqual([]);

    await pressEnter();
    expect(composition.at(-1)).toBe('Enter composing=false');
    expect(sent).toEqual(['日本']);
    expect(input.value).toBe('');
    await el.updateComplete;
    expect($(el, '[part~="user"]')!.textContent!.trim()).toBe('日本');
  });
});
