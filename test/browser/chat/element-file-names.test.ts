// File names with bidirectional controls: `<bdi>` isolates a name from its surroundings, but a RIGHT-TO-LEFT
// OVERRIDE inside it still reverses what follows ("invoice\u202Efdp.exe" reads "invoiceexe.pdf"). Every
// place the element shows a file name shows the controls as visible code points instead.
import { afterEach, describe, expect, it } from 'vitest';
import { Agent } from '../../../src/agent/agent.js';
import type { PagentChat } from '../../../src/chat/element.js';
import { createSessionStore, type SessionStore } from '../../../src/store/index.js';
import { $, $$, chatFixture, shadow, until } from './helpers.js';
import { pngFile, scriptedLlm } from './attachments-helpers.js';

const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const RLO = '\u202E';

/** Every text node and every labelling attribute in the element's shadow root (dialogs included). */
function renderedText(el: PagentChat): string[] {
  const out: string[] = [];
  const walker = document.createTreeWalker(shadow(el), NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.nodeType === Node.TEXT_NODE) out.push(node.textContent ?? '');
    else for (const name of ['aria-label', 'alt', 'title']) out.push((node as Element).getAttribute(name) ?? '');
  }
  return out.filter((t) => t !== '');
}

/** The horizontal position of `part` inside the text of `element` (its first occurrence). */
function xOf(element: Element, part: string): number {
  const text = [...element.childNodes].find((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.includes(part))!;
  const range = document.createRange();
  const at = text.textContent!.indexOf(part);
  range.setStart(text, at);
  range.setEnd(text, at + part.length);
  return range.getBoundingClientRect().left;
}

const stores: SessionStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
});

describe('<pagent-chat> file names with bidirectional controls', () => {
  it('previews, refusals, sent chips, thumbnails and the viewer show the controls as code points, in written order', async () => {
    const { llm } = await scriptedLlm('Got them.');
    const el = await chatFixture((c) => {
      c.agent = new Agent({ llm });
      c.maxAttachmentBytes = 1000;
    });
    const files = [
      new File(['plain text'], `invoice${RLO}fdp.exe`, { type: 'text/plain' }),
      new File(['notes'], 'a\u2066b\u2069\u200Fc\u061C.md', { type: 'text/markdown' }),
      await pngFile(`photo${RLO}gnp.exe`, 4, 4),
      new File([new Uint8Array(5000)], `big${RLO}txt.exe`, { type: 'text/plain' }),
    ];
    const input = $<HTMLInputElement>(el, 'input[type="file"]')!;
    const dt = new DataTransfer();
    for (const f of files) dt.items.add(f);
    input.files = dt.files;
    input.dispatchEvent(new Event('change', { bubbles: true }));
    await until(() => $$(el, '[part~="attachment-preview"]').length === 3 && $(el, '[part~="attachment-error"]') !== null, 'the previews');

    const names = $$(el, '[part~="attachment-preview"] .attachment-name');
    expect(names.map((n) => n.textContent)).toEqual(['invoice⟨U+202E⟩fdp.exe', 'a⟨U+2066⟩b⟨U+2069⟩⟨U+200F⟩c⟨U+061C⟩.md', 'photo⟨U+202E⟩gnp.exe']);
    // what the reader sees: "fdp" before ".exe", left to right, not "exe.pdf"
    const bdi = names[0]!.querySelector('bdi')!;
    expect(xOf(bdi, 'fdp')).toBeLessThan(xOf(bdi, '.exe'));
    expect($(el, '[part~="attachment-error"] p')!.textContent).toBe('“big⟨U+202E⟩txt.exe” is 4.9 KiB: files can be at most 1,000 B.');
    expect($$(el, '[part~="attachment-remove"]')[0]!.getAttribute('aria-label')).toBe('Remove invoice⟨U+202E⟩fdp.exe');
    expect(renderedText(el).filter((t) => BIDI.test(t))).toEqual([]);

    $<HTMLButtonElement>(el, '[part~="send-button"]')!.click();
    await until(() => $$(el, '[part~="message-attachments"] li').length === 3 && $$(el, '[part~="answer-text"]').length === 1, 'the sent message');
    expect($$(el, '[part~="attachment-chip"] .attachment-name').map((n) => n.textContent)).toEqual(['invoice⟨U+202E⟩fdp.exe', 'a⟨U+2066⟩b⟨U+2069⟩⟨U+200F⟩c⟨U+061C⟩.md']);
    const thumb = $<HTMLButtonElement>(el, '[part~="attachment-thumb"]')!;
    expect(thumb.getAttribute('aria-label')).toBe('View photo⟨U+202E⟩gnp.exe larger');
    thumb.click();
    await until(() => $(el, 'dialog[open]') !== null, 'the viewer');
    const dialog = $<HTMLDialogElement>(el, 'dialog')!;
    expect(dialog.getAttribute('aria-label')).toBe('photo⟨U+202E⟩gnp.exe');
    expect(dialog.querySelector('figcaption')!.textContent).toBe('photo⟨U+202E⟩gnp.exe');
    expect(renderedText(el).filter((t) => BIDI.test(t))).toEqual([]);
    dialog.close();
  });

  it('a stored file part, the conversation title naming it and a workspace file show their names the same way', async () => {
    const store = createSessionStore({ name: `bidi-names-${crypto.randomUUID()}` });
    stores.push(store);
    await store.append('s', [
      { role: 'user', content: [{ type: 'file', file: { filename: `report${RLO}fdp.exe`, file_data: 'data:application/pdf;base64,JVBERi0=' } }] },
      { role: 'assistant', content: 'ok' },
    ]);
    const workspace = {
      files: async () => [{ path: `out/summary${RLO}txt.exe`, size: 3 }],
      file: async () => new Blob(['abc']),
      delete: async () => undefined,
    };
    const el = await chatFixture((c) => {
      c.store = store;
      c.workspace = workspace;
    });
    await until(() => $(el, '[part~="session-open"]') !== null && $(el, '[part~="file"]') !== null, 'the list and the files panel');
    $<HTMLButtonElement>(el, '[part~="session-open"]')!.click();
    await until(() => $(el, '[part~="attachment-chip"]') !== null, 'the stored chip');
    expect($(el, '[part~="attachment-chip"] .attachment-name')!.textContent).toBe('report⟨U+202E⟩fdp.exe');
    // the conversation's title, made from its first message, names the file too
    expect($(el, '[part~="session-title"]')!.textContent).toBe('[file report⟨U+202E⟩fdp.exe]');
    expect($(el, '[part~="file"] .file-path')!.textContent).toBe('out/summary⟨U+202E⟩txt.exe');
    expect($(el, '[part~="file-download"]')!.getAttribute('aria-label')).toContain('out/summary⟨U+202E⟩txt.exe');
    expect(renderedText(el).filter((t) => BIDI.test(t))).toEqual([]);
  });
});
