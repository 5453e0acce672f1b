// What attachments look like: previews, a sent message with images, the enlarged view (light, dark and
// 375 px screenshots in test-results/screens), and a stored conversation reopened with its images.
import { describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { Agent } from '../../../src/agent/agent.js';
import type { PagentChat } from '../../../src/chat/element.js';
import { createSessionStore } from '../../../src/store/session-store.js';
import { $, $$, chatFixture, until } from './helpers.js';
import { dataUrlOf, pngFile, scriptedLlm } from './attachments-helpers.js';

const SCREENS = '../../../test-results/screens';

async function screenshot(el: PagentChat, name: string, width: number): Promise<void> {
  await page.viewport(width, 900);
  el.scrollIntoView();
  await el.updateComplete;
  await new Promise((r) => requestAnimationFrame(() => r(undefined)));
  await page.screenshot({ element: el, path: `${SCREENS}/${name}.png` });
}

async function pick(el: PagentChat, ...files: File[]): Promise<void> {
  const dt = new DataTransfer();
  for (const f of files) dt.items.add(f);
  const input = $<HTMLInputElement>(el, 'input[type="file"]')!;
  input.files = dt.files;
  input.dispatchEvent(new Event('change'));
  await until(() => $$(el, '[part~="attachment-preview"]').length === files.length, 'the previews');
  await el.updateComplete;
}

const notes = (): File => new File(['# Trip notes\n'], 'trip-notes.md', { type: 'text/markdown' });

for (const [theme, width] of [['light', 720], ['dark', 720], ['light', 375]] as const) {
  describe(`<pagent-chat> attachments, ${theme}, ${width} px`, () => {
    it('previews, a sent message with images, and the enlarged view', async () => {
      const { llm } = await scriptedLlm('Two photos of a red and blue card, and your notes.');
      const el = await chatFixture((c) => {
        c.theme = theme;
        c.style.width = `${width}px`;
        c.style.height = '640px';
        c.agent = new Agent({ llm });
      });
      await pick(el, await pngFile('beach.png', 1600, 1000), await pngFile('sunset.png', 800, 1200), notes());
      $<HTMLTextAreaElement>(el, 'textarea')!.value = 'What is in these?';
      const label = `${theme}-${width}`;
      await screenshot(el, `attachments-previews-${label}`, width + 40);
      // every preview fits the composer's width
      const composer = $(el, '[part~="composer"]')!.getBoundingClientRect();
      for (const p of $$(el, '[part~="attachment-preview"]')) expect(p.getBoundingClientRect().right).toBeLessThanOrEqual(composer.right + 0.5);
      $<HTMLButtonElement>(el, '[part~="send-button"]')!.click();
      await until(() => $$(el, '[part~="attachment-thumb"] img').length === 2 && $$(el, '[part~="answer-text"]').length === 1, 'the sent message');
      await until(() => $$<HTMLImageElement>(el, '[part~="attachment-thumb"] img').every((i) => i.complete && i.naturalWidth > 0), 'the thumbnails to load');
      await screenshot(el, `attachments-sent-${label}`, width + 40);
      $<HTMLButtonElement>(el, '[part~="attachment-thumb"]')!.click();
      await until(() => $(el, 'dialog[open] img') !== null, 'the viewer');
      await until(() => $<HTMLImageElement>(el, 'dialog img')!.complete, 'the large image');
      const img = $<HTMLImageElement>(el, 'dialog img')!;
      expect(img.getBoundingClientRect().width).toBeLessThanOrEqual(width + 40);
      await page.viewport(width + 40, 900);
      await page.screenshot({ path: `${SCREENS}/attachments-viewer-${label}.png` });
      $<HTMLDialogElement>(el, 'dialog')!.close();
    });
  });
}

describe('<pagent-chat> stored conversations with attachments', () => {
  it('reopening a stored conversation shows its images (from blob: URLs) and file chips again', async () => {
    const store = createSessionStore({ name: `attach-view-${crypto.randomUUID()}` });
    const image = await dataUrlOf(await pngFile('x.png', 120, 80), 'image/png');
    await store.append('trip', [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Our trip' },
          { type: 'image_url', image_url: { url: image } },
          { type: 'image_url', image_url: { url: 'https://example.com/remote.png' } },
          { type: 'text', text: '<file name="plan.md">\n# Plan\n</file>' },
        ],
      },
      { role: 'assistant', content: 'Nice.' },
    ]);
    const el = await chatFixture((c) => (c.store = store));
    await until(() => $$(el, '[part~="session-open"]').length === 1, 'the session list');
    $<HTMLButtonElement>(el, '[part~="session-open"]')!.click();
    await until(() => $$(el, '[part~="attachment-thumb"]').length === 1, 'the reopened thumbnail');
    const bubble = $(el, '[part~="user"]')!;
    expect(bubble.querySelector('[part~="message-text"]')!.textContent).toBe('Our trip');
    const thumb = bubble.querySelector<HTMLImageElement>('[part~="attachment-thumb"] img')!;
    expect(thumb.src).toMatch(/^blob:/);
    await until(() => thumb.complete && thumb.naturalWidth === 120, 'the image to decode');
    // the remote image is not loaded (no allowImage): a chip names it; the text file is a chip too
    expect([...bubble.querySelectorAll('[part~="attachment-chip"]')].map((c) => c.textContent!.replace(/\s+/g, ''))).toEqual(['📄image', '📄plan.md6B']);
    // a new conversation revokes the blob: URL
    const url = thumb.src;
    el.reset();
    await el.updateComplete;
    const gone = await fetch(url).then(() => false, () => true);
    expect(gone).toBe(true);
    store.close();
  });
});
