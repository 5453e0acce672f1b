import { expect as chaiExpect } from '@open-wc/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { cdp } from 'vitest/browser';
import type { PagentChat } from '../../../src/chat/element.js';
import { $, chatFixture, pushAll, textRun, until } from './helpers.js';

/** Emulates media features for the whole page through the Chrome DevTools Protocol. */
async function emulate(features: Array<{ name: string; value: string }>): Promise<void> {
  await cdp().send('Emulation.setEmulatedMedia', { features });
}

const LIGHT_BG = 'rgb(255, 255, 255)';
const DARK_BG = 'rgb(21, 24, 28)';
const bg = (el: PagentChat): string => getComputedStyle(el).backgroundColor;

afterEach(async () => {
  await emulate([]);
});

describe('<pagent-chat> under emulated prefers-color-scheme', () => {
  it('theme="auto" follows the system scheme, dark and light, with matching colour-scheme', async () => {
    const el = await chatFixture((c) => (c.theme = 'auto'));
    await pushAll(el, textRun('q', ['Some `code` and text.']));
    await emulate([{ name: 'prefers-color-scheme', value: 'dark' }]);
    expect(matchMedia('(prefers-color-scheme: dark)').matches).toBe(true);
    expect(bg(el)).toBe(DARK_BG);
    expect(getComputedStyle(el).colorScheme).toBe('dark');
    expect(getComputedStyle($(el, '[part="send-button"]')!).backgroundColor).toBe('rgb(110, 168, 255)');
    await chaiExpect(el).to.be.accessible();

    await emulate([{ name: 'prefers-color-scheme', value: 'light' }]);
    expect(matchMedia('(prefers-color-scheme: light)').matches).toBe(true);
    expect(bg(el)).toBe(LIGHT_BG);
    expect(getComputedStyle(el).colorScheme).toBe('light');
    expect(getComputedStyle($(el, '[part="send-button"]')!).backgroundColor).toBe('rgb(11, 92, 213)');
  });

  it('a forced theme wins over the system scheme either way', async () => {
    const light = await chatFixture((c) => (c.theme = 'light'));
    const dark = await chatFixture((c) => (c.theme = 'dark'));
    await emulate([{ name: 'prefers-color-scheme', value: 'dark' }]);
    expect(bg(light)).toBe(LIGHT_BG);
    expect(bg(dark)).toBe(DARK_BG);
    await emulate([{ name: 'prefers-color-scheme', value: 'light' }]);
    expect(bg(light)).toBe(LIGHT_BG);
    expect(bg(dark)).toBe(DARK_BG);
  });
});

describe('<pagent-chat> under emulated prefers-reduced-motion', () => {
  async function scrolledUp(): Promise<{ el: PagentChat; log: HTMLElement }> {
    const el = await chatFixture((c) => (c.style.height = '260px'));
    for (let i = 0; i < 10; i++) await pushAll(el, textRun(`question ${i}`, [`answer ${i}\n\nwith a second paragraph`]));
    await pushAll(el, textRun('code', ['```js\nlet x = 1;\n```']));
    const log = $(el, '[part="timeline"]')!;
    await until(() => log.scrollHeight - log.scrollTop - log.clientHeight <= 24, 'the view to follow to the bottom');
    log.scrollTop = 0;
    log.dispatchEvent(new Event('scroll'));
    await el.updateComplete;
    return { el, log };
  }
  const maxScroll = (log: HTMLElement): number => log.scrollHeight - log.clientHeight;

  it('jumps to the latest message instantly and runs no transitions when reduced motion is asked for', async () => {
    await emulate([{ name: 'prefers-reduced-motion', value: 'reduce' }]);
    expect(matchMedia('(prefers-reduced-motion: reduce)').matches).toBe(true);
    const { el, log } = await scrolledUp();
    const copy = $(el, '[part~="copy-button"]')!;
    expect(getComputedStyle(copy).transitionDuration).toBe('0s');
    expect(getComputedStyle(log).scrollBehavior).toBe('auto');
    $<HTMLButtonElement>(el, '[part="jump-button"]')!.click();
    // an instant scroll lands before the click handler returns; a smooth one would still be at the top
    expect(Math.abs(log.scrollTop - maxScroll(log))).toBeLessThanOrEqual(1);
  });

  it('without the preference, the copy button fades and the jump scrolls smoothly', async () => {
    await emulate([{ name: 'prefers-reduced-motion', value: 'no-preference' }]);
    const { el, log } = await scrolledUp();
    expect(getComputedStyle($(el, '[part~="copy-button"]')!).transitionDuration).toBe('0.15s');
    $<HTMLButtonElement>(el, '[part="jump-button"]')!.click();
    expect(log.scrollTop).toBeLessThan(maxScroll(log) - 1);
  });
});
