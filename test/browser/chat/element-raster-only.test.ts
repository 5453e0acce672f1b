// Only raster images (PNG, JPEG, GIF, WebP, AVIF, told by their bytes) are ever shown as images. An SVG
// with a script or an HTML page given as an "image" — imported, pasted, dropped or read from an old store —
// is an inert file chip: no <img>, no blob: URL typed after its header, so opening what the element made in
// a tab (here: a same-origin iframe, as "Open image in new tab" would) runs nothing (window.__pwned: 1 when
// the SVG's script ran, 2 when the HTML page's did).
import { afterEach, describe, expect, it } from 'vitest';
import { Agent } from '../../../src/agent/agent.js';
import type { UserContentPart } from '../../../src/agent/content-parts.js';
import type { PagentChat } from '../../../src/chat/element.js';
import { createSessionStore, type SessionStore } from '../../../src/store/index.js';
import { plant } from '../store/helpers.js';
import { $, $$, chatFixture, until } from './helpers.js';
import { base64, scriptedLlm } from './attachments-helpers.js';
import avifUrl from '../../fixtures/images/pixel.avif?url';
import pngUrl from '../../fixtures/images/pixel.png?url';

declare global {
  interface Window {
    __pwned?: number;
  }
}

const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>parent.__pwned = 1</script><rect width="10" height="10"/></svg>';
const HTML = '<!doctype html><script>parent.__pwned = 2</script>';
const b64 = (text: string): string => btoa(text);
const fixtureBytes = async (url: string): Promise<Uint8Array> => new Uint8Array(await (await fetch(url)).arrayBuffer());

/** Every blob: URL made while a test runs, with the type of the Blob behind it. */
let made: Array<{ url: string; type: string }> = [];
const createObjectURL = URL.createObjectURL;
function recordObjectUrls(): void {
  made = [];
  URL.createObjectURL = (obj: Blob | MediaSource): string => {
    const url = createObjectURL.call(URL, obj);
    made.push({ url, type: obj instanceof Blob ? obj.type : 'MediaSource' });
    return url;
  };
}

const stores: SessionStore[] = [];
afterEach(() => {
  URL.createObjectURL = createObjectURL;
  delete window.__pwned;
  for (const s of stores.splice(0)) s.close();
});

/**
 * Opens each blob: URL the element made in a same-origin iframe, as a user opening the image in a tab of
 * its own would, and waits for it to load. A Blob typed application/octet-stream would be downloaded, not
 * shown: there is nothing to open.
 */
async function openEveryObjectUrl(): Promise<void> {
  for (const { url, type } of made) {
    if (type === 'application/octet-stream') continue;
    const frame = document.createElement('iframe');
    const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
    frame.src = url;
    document.body.append(frame);
    await loaded;
    frame.remove();
  }
}

const thumbs = (el: PagentChat): HTMLImageElement[] => $$<HTMLImageElement>(el, 'img');
const chips = (el: PagentChat): HTMLElement[] => $$(el, '[part~="attachment-chip"]');

function transfer(...files: File[]): DataTransfer {
  const dt = new DataTransfer();
  for (const f of files) dt.items.add(f);
  return dt;
}

describe('<pagent-chat> shows only raster images', () => {
  it('an imported export with an SVG that has a script and an HTML "image": inert chips, no script even when opened', async () => {
    recordObjectUrls();
    const store = createSessionStore({ name: `raster-import-${crypto.randomUUID()}` });
    stores.push(store);
    const png = `data:image/png;base64,${base64(await fixtureBytes(pngUrl))}`;
    const parts: UserContentPart[] = [
      { type: 'text', text: 'look at these' },
      { type: 'image_url', image_url: { url: `data:image/svg+xml;base64,${b64(SVG)}` } },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${b64(SVG)}` } },
      { type: 'image_url', image_url: { url: `data:text/html;base64,${b64(HTML)}` } },
      { type: 'image_url', image_url: { url: png } },
    ];
    const exported = JSON.stringify({
      format: 'pagent-web/session', version: 1, id: 'hostile', title: 'Pictures', createdAt: 1, updatedAt: 2,
      session: { version: 1, kind: 'session', messages: [{ role: 'user', content: parts }, { role: 'assistant', content: 'Nice pictures.' }] },
    });
    const el = await chatFixture((c) => (c.store = store));
    await until(() => $(el, '[part="session-import"]') !== null, 'the import button');
    const input = $<HTMLInputElement>(el, '.conv-tools input[type="file"]')!;
    input.files = transfer(new File([exported], 'pictures.json', { type: 'application/json' })).files;
    input.dispatchEvent(new Event('change', { bubbles: true }));
    await until(() => $$(el, '[part~="message-attachments"] li').length === 4, 'the imported attachments');
    await until(() => thumbs(el).every((i) => i.complete), 'the thumbnails to load');
    await openEveryObjectUrl();
    expect(window.__pwned).toBeUndefined();

    // the real PNG is a thumbnail; the SVGs and the HTML page are chips, with their size
    expect(thumbs(el)).toHaveLength(1);
    expect(thumbs(el)[0]!.naturalWidth).toBe(2);
    expect(chips(el).map((c) => c.querySelector('.attachment-name')!.textContent)).toEqual(['image', 'image', 'image']);
    expect(chips(el).every((c) => c.querySelector('.attachment-size') !== null)).toBe(true);
    // clicking the chips opens nothing; the thumbnail opens the PNG
    for (const chip of chips(el)) chip.click();
    $<HTMLButtonElement>(el, '[part~="attachment-thumb"]')!.click();
    await until(() => $(el, 'dialog[open] img') !== null, 'the viewer');
    expect($$(el, 'dialog')).toHaveLength(1);
    $<HTMLDialogElement>(el, 'dialog')!.close();

    expect(made.map((m) => m.type)).toEqual(['image/png']);
    await openEveryObjectUrl();
    expect(window.__pwned).toBeUndefined();
  });

  it('an old store whose blob record holds an SVG under an image header: a chip, and no script when opened', async () => {
    recordObjectUrls();
    const name = `raster-old-${crypto.randomUUID()}`;
    const store = createSessionStore({ name });
    stores.push(store);
    await store.append('old', [
      { role: 'user', content: [{ type: 'text', text: 'my logo' }, { type: 'image_url', image_url: { url: `data:image/svg+xml;base64,${b64(SVG)}` } }] },
      { role: 'assistant', content: 'A square.' },
    ]);
    // the record as the store wrote it before: the Blob typed after the data URL's header
    await plant(name, ['blob', 'old', 0, 1], { version: 1, header: 'data:image/svg+xml;base64', blob: new Blob([SVG], { type: 'image/svg+xml' }) });
    const el = await chatFixture((c) => (c.store = store));
    await until(() => $(el, '[part~="session-open"]') !== null, 'the conversation list');
    $<HTMLButtonElement>(el, '[part~="session-open"]')!.click();
    await until(() => $$(el, '[part~="message-attachments"] li').length === 1, 'the stored attachment');
    await openEveryObjectUrl();
    expect(window.__pwned).toBeUndefined();
    expect(thumbs(el)).toEqual([]);
    expect(chips(el)).toHaveLength(1);
    expect(made.filter((m) => m.type !== 'application/octet-stream')).toEqual([]);
  });

  it('an SVG pasted, dropped or picked is a file chip sent as its text, never an image; SVG bytes named photo.png are refused', async () => {
    recordObjectUrls();
    const { llm, bodies } = await scriptedLlm('A drawing.');
    const el = await chatFixture((c) => (c.agent = new Agent({ llm })));
    const textarea = $<HTMLTextAreaElement>(el, 'textarea')!;
    const paste = new ClipboardEvent('paste', {
      clipboardData: transfer(new File([SVG], 'pasted.svg', { type: 'image/svg+xml' })),
      bubbles: true,
      cancelable: true,
      composed: true,
    });
    textarea.dispatchEvent(paste);
    await until(() => $$(el, '[part~="attachment-preview"]').length === 1, 'the pasted SVG');
    const timeline = $(el, '[part~="timeline"]')!;
    const dt = transfer(new File([SVG], 'dropped.svg', { type: 'image/svg+xml' }), new File([SVG], 'photo.png', { type: 'image/png' }));
    for (const type of ['dragenter', 'dragover', 'drop']) timeline.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, composed: true, cancelable: true }));
    await until(() => $$(el, '[part~="attachment-preview"]').length === 2 && $(el, '[part~="attachment-error"]') !== null, 'the dropped files');
    expect($$(el, '[part~="attachment-error"] p').map((p) => p.textContent)).toEqual(['“photo.png” could not be read.']);
    const input = $<HTMLInputElement>(el, '[part~="composer"] input[type="file"]')!;
    input.files = transfer(new File([SVG], 'picked.svg', { type: 'image/svg+xml' })).files;
    input.dispatchEvent(new Event('change', { bubbles: true }));
    await until(() => $$(el, '[part~="attachment-preview"]').length === 3, 'the picked SVG');
    expect($$(el, '[part~="attachment-preview"] .attachment-name').map((n) => n.textContent)).toEqual(['pasted.svg', 'dropped.svg', 'picked.svg']);
    expect(thumbs(el)).toEqual([]);

    $<HTMLButtonElement>(el, '[part~="send-button"]')!.click();
    await until(() => $$(el, '[part~="answer-text"]').length === 1, 'the answer');
    expect((await bodies())[0]!.messages.at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: `<file name="pasted.svg">\n${SVG}\n</file>` },
        { type: 'text', text: `<file name="dropped.svg">\n${SVG}\n</file>` },
        { type: 'text', text: `<file name="picked.svg">\n${SVG}\n</file>` },
      ],
    });
    expect(chips(el)).toHaveLength(3);
    expect(thumbs(el)).toEqual([]);
    expect(made.filter((m) => m.type !== 'application/octet-stream')).toEqual([]);
    await openEveryObjectUrl();
    expect(window.__pwned).toBeUndefined();
  });

  it('a raster image under a wrong header or declared type is shown, typed by its bytes', async () => {
    recordObjectUrls();
    const store = createSessionStore({ name: `raster-typed-${crypto.randomUUID()}` });
    stores.push(store);
    const png = base64(await fixtureBytes(pngUrl));
    const avif = base64(await fixtureBytes(avifUrl));
    await store.append('typed', [
      {
        role: 'user',
        content: [
          { type: 'image_url', image_url: { url: `data:application/octet-stream;base64,${png}` } },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${avif}` } },
        ],
      },
      { role: 'assistant', content: 'Two pixels.' },
    ]);
    const el = await chatFixture((c) => (c.store = store));
    await until(() => $(el, '[part~="session-open"]') !== null, 'the conversation list');
    $<HTMLButtonElement>(el, '[part~="session-open"]')!.click();
    await until(() => thumbs(el).length === 2 && thumbs(el).every((i) => i.complete), 'the thumbnails');
    expect(thumbs(el).map((i) => i.naturalWidth)).toEqual([2, 2]);
    expect(made.map((m) => m.type)).toEqual(['image/png', 'image/avif']);
  });
});
