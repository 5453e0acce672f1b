// Export (Markdown, JSON) and import (picker, drop) from the conversation list, against a real IndexedDB store.
import { expect as chaiExpect } from '@open-wc/testing';
import { afterEach, describe, expect, it } from 'vitest';
import type { PagentChat } from '../../../src/chat/element.js';
import { createSessionStore, type SessionStore } from '../../../src/store/index.js';
import { $, $$, chatFixture, until } from './helpers.js';

const stores: SessionStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
});

async function fixture(lang?: string) {
  const store = createSessionStore({ name: `export-ui-${crypto.randomUUID()}` });
  stores.push(store);
  await store.import(JSON.stringify({
    format: 'pagent-web/session', version: 1, id: 'trip', title: 'Trip: ../Kyoto/ <plan>', createdAt: 1, updatedAt: 2,
    session: { version: 1, kind: 'session', systemPrompt: 'terse', messages: [
      { role: 'user', content: [{ type: 'text', text: 'Plan a day in 京都' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }] },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'search', arguments: '{"q":"Kyoto temples"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'Kinkaku-ji, Fushimi Inari' },
      { role: 'assistant', content: 'Morning: **Fushimi Inari**.' },
    ] },
  }));
  const el = await chatFixture((c) => {
    c.store = store;
    if (lang) c.setAttribute('lang', lang);
  });
  await until(() => $(el, '[part="session-export"]') !== null && $(el, '[part="session-import"]') !== null, 'the export and import buttons');
  return { el, store };
}

/** Records the downloads the element starts: the anchor's name and the blob's text (revocation deferred). */
function captureDownloads() {
  const downloads: Array<{ name: string; text: Promise<string>; url: string }> = [];
  const revoked: string[] = [];
  const click = HTMLAnchorElement.prototype.click;
  const revoke = URL.revokeObjectURL;
  HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
    downloads.push({ name: this.download, url: this.href, text: fetch(this.href).then((r) => r.text()) });
  };
  URL.revokeObjectURL = (url: string) => void revoked.push(url);
  return {
    downloads,
    revoked,
    restore() {
      HTMLAnchorElement.prototype.click = click;
      URL.revokeObjectURL = revoke;
    },
  };
}

async function exportVia(el: PagentChat, format: 'markdown' | 'json'): Promise<void> {
  $<HTMLButtonElement>(el, '[part="session-export"]')!.click();
  await until(() => $(el, `[part="session-export-${format}"]`) !== null, 'the export choice');
  expect(el.shadowRoot!.activeElement?.getAttribute('part')).toBe('session-export-markdown');
  await chaiExpect(el).to.be.accessible();
  $<HTMLButtonElement>(el, `[part="session-export-${format}"]`)!.click();
  await until(() => $(el, '[part="session-export-choice"]') === null, 'the choice closed');
}

function pick(el: PagentChat, file: File): void {
  const input = $<HTMLInputElement>(el, '.conv-tools input[type="file"]')!;
  const dt = new DataTransfer();
  dt.items.add(file);
  input.files = dt.files;
  input.dispatchEvent(new Event('change', { bubbles: true }));
}

const ids = async (store: SessionStore) => (await store.list()).map((s) => s.id).sort();

describe('exporting from the list', () => {
  it('downloads exactly store.export(id) as JSON, under a safe name, and revokes the blob URL', async () => {
    const { el, store } = await fixture();
    const events: unknown[] = [];
    el.addEventListener('pagent-export', (e) => events.push(e.detail));
    const capture = captureDownloads();
    try {
      await exportVia(el, 'json');
      await until(() => capture.downloads.length === 1 && capture.revoked.length === 1, 'the download');
    } finally {
      capture.restore();
    }
    const [d] = capture.downloads;
    expect(d!.name).toBe('Trip .. Kyoto plan.json');
    expect(await d!.text).toBe(await store.export('trip'));
    expect(capture.revoked).toEqual([d!.url]);
    expect(events).toEqual([{ id: 'trip', format: 'json', fileName: 'Trip .. Kyoto plan.json', text: await store.export('trip') }]);
    expect(el.shadowRoot!.activeElement?.getAttribute('part')).toBe('session-export');
  });

  it('downloads a Markdown transcript with headings in the reader’s language', async () => {
    const { el } = await fixture('ja');
    const capture = captureDownloads();
    try {
      await exportVia(el, 'markdown');
      await until(() => capture.downloads.length === 1, 'the download');
    } finally {
      capture.restore();
    }
    const text = await capture.downloads[0]!.text;
    expect(capture.downloads[0]!.name).toBe('Trip .. Kyoto plan.md');
    expect(text).toContain('# Trip: ../Kyoto/ <plan>\n\n## あなた\n\nPlan a day in 京都\n\n*画像*');
    expect(text).toContain('```json\n{\n  "q": "Kyoto temples"\n}\n```');
    expect(text).toContain('Morning: **Fushimi Inari**.');
    expect(text).not.toContain('iVBORw0KGgo');
  });

  it('a cancelled pagent-export starts no download', async () => {
    const { el } = await fixture();
    el.addEventListener('pagent-export', (e) => e.preventDefault());
    const capture = captureDownloads();
    try {
      await exportVia(el, 'json');
      await new Promise((r) => setTimeout(r, 50));
    } finally {
      capture.restore();
    }
    expect(capture.downloads).toEqual([]);
  });
});

describe('importing into the list', () => {
  it('round trip: export, delete, import the file: the same messages come back, and it opens', async () => {
    const { el, store } = await fixture();
    const json = await store.export('trip');
    const before = (await store.load('trip'))!.messages;
    await store.delete('trip');
    await until(() => $$(el, '[part="session"]').length === 0, 'the empty list');
    const imported: unknown[] = [];
    el.addEventListener('pagent-import', (e) => imported.push(e.detail));
    pick(el, new File([json], 'trip.json', { type: 'application/json' }));
    await until(() => imported.length === 1 && $(el, '[part="session"][aria-current="true"]') !== null, 'the import, opened');
    expect(imported).toEqual([{ id: 'trip', fileName: 'trip.json' }]);
    expect((await store.load('trip'))!.messages).toEqual(before);
    expect($(el, '[part~="answer"]')!.textContent).toContain('Fushimi Inari');
    await until(() => $(el, '.session-list [role="status"]')!.textContent === 'Imported “Trip: ../Kyoto/ <plan>”', 'the announcement');
  });

  it('refuses bad files with a clear message and writes nothing', async () => {
    const { el, store } = await fixture();
    const good = JSON.parse(await store.export('trip')) as Record<string, unknown>;
    const listed = await ids(store);
    // a message no reader knows, in the active path and in the tree of every branch
    const tree = good['tree'] as { nodes: Array<{ message: unknown }> };
    const broken = {
      ...good, id: 'x', session: { ...(good['session'] as object), messages: [{ role: 'robot' }] },
      tree: { ...tree, nodes: tree.nodes.map((n, i) => (i === 0 ? { ...n, message: { role: 'robot' } } : n)) },
    };
    const big = new File(['{}'], 'huge.json');
    Object.defineProperty(big, 'size', { value: 50 * 1024 * 1024 + 1 });
    const cases: Array<[File, string]> = [
      [new File(['not json at all'], 'notes.json'), '“notes.json” is not a JSON file.'],
      [new File([JSON.stringify({ hello: 1 })], 'other.json'), '“other.json” is not an exported conversation.'],
      [new File([JSON.stringify({ ...good, version: 3 })], 'future.json'), '“future.json” comes from a newer version and cannot be read here.'],
      [new File([JSON.stringify(broken)], 'broken.json'), '“broken.json” is damaged and was not imported.'],
      [big, '“huge.json” is 50.1 MiB: files to import can be at most 50 MiB.'],
    ];
    for (const [file, message] of cases) {
      pick(el, file);
      await until(() => $(el, '[part="session-import-error"]')?.textContent === message, message);
      expect($(el, '[part="session-import-error"]')!.getAttribute('role')).toBe('alert');
      expect(await ids(store)).toEqual(listed);
    }
    await chaiExpect(el).to.be.accessible();
  });

  it('says it in Chinese too', async () => {
    const { el, store } = await fixture('zh-CN');
    const listed = await ids(store);
    pick(el, new File(['<html>'], 'page.json'));
    await until(() => $(el, '[part="session-import-error"]')?.textContent === '“page.json”不是 JSON 文件。', 'the Chinese message');
    expect(await ids(store)).toEqual(listed);
  });

  it('imports a file dropped on the list, without attaching it to the message', async () => {
    const { el, store } = await fixture();
    const json = (await store.export('trip')).replace('"title":"Trip: ../Kyoto/ <plan>"', '"title":"Dropped copy"');
    const dt = new DataTransfer();
    dt.items.add(new File([json], 'copy.json', { type: 'application/json' }));
    const list = $(el, '[part="session-list"]')!;
    list.dispatchEvent(new DragEvent('dragenter', { dataTransfer: dt, bubbles: true, composed: true, cancelable: true }));
    await el.updateComplete;
    expect(list.classList.contains('dropping')).toBe(true);
    expect($(el, '[part="drop-target"]')).toBeNull();
    list.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, composed: true, cancelable: true }));
    await until(() => $$(el, '[part="session"]').length === 2, 'the imported copy');
    expect((await store.list()).map((s) => s.title).sort()).toEqual(['Dropped copy', 'Trip: ../Kyoto/ <plan>']);
    expect($(el, '[part="attachment-previews"]')).toBeNull();
    expect(list.classList.contains('dropping')).toBe(false);
  });
});
