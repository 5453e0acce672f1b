// Attachments in <pagent-chat>: picked, pasted and dropped files reach the model as the exact content
// parts expected (request bodies recorded by the local scripted server), limits and unreadable files are
// refused with a localised sentence while nothing else is lost, and sent files show in the user bubble.
import { expect as chaiExpect } from '@open-wc/testing';
import { describe, expect, it } from 'vitest';
import { Agent } from '../../../src/agent/agent.js';
import type { UserContentPart } from '../../../src/agent/content-parts.js';
import type { PagentChat } from '../../../src/chat/element.js';
import type { WireEvent } from '../../../src/wire/events.js';
import { $, $$, chatFixture, until } from './helpers.js';
import { api, dataUrlOf, imageSize, pngFile, rotatedJpeg, scriptedLlm } from './attachments-helpers.js';

const textarea = (el: PagentChat): HTMLTextAreaElement => $<HTMLTextAreaElement>(el, 'textarea')!;
const previews = (el: PagentChat): HTMLElement[] => $$(el, '[part~="attachment-preview"]');
const sendButton = (el: PagentChat): HTMLButtonElement => $<HTMLButtonElement>(el, '[part~="send-button"]')!;

function transfer(...files: File[]): DataTransfer {
  const dt = new DataTransfer();
  for (const f of files) dt.items.add(f);
  return dt;
}

/** Picks files through the composer's file input, as the picker does. */
async function pick(el: PagentChat, ...files: File[]): Promise<void> {
  const input = $<HTMLInputElement>(el, 'input[type="file"]')!;
  input.files = transfer(...files).files;
  input.dispatchEvent(new Event('change', { bubbles: true }));
}

async function waitPreviews(el: PagentChat, n: number): Promise<void> {
  await until(() => previews(el).length === n, `${n} attachment previews`);
  await el.updateComplete;
}

const md = (): File => new File(['# Notes\n- one ✅\n'], 'notes.md', { type: 'text/markdown' });

describe('<pagent-chat> attachments reach the model', () => {
  it('picked files: an image as is, a text file as a text part with its name, in the exact request body', async () => {
    const { llm, bodies } = await scriptedLlm('Seen.');
    const el = await chatFixture((c) => (c.agent = new Agent({ llm })));
    const small = await pngFile('pixel.png', 64, 32);
    const attach = $<HTMLButtonElement>(el, '[part~="attach-button"]')!;
    expect(attach.getAttribute('aria-label')).toBe('Attach files');
    await pick(el, small, md());
    await waitPreviews(el, 2);
    expect(previews(el).map((p) => p.querySelector('.attachment-name')!.textContent)).toEqual(['pixel.png', 'notes.md']);
    textarea(el).value = 'Look at these';
    sendButton(el).click();
    await until(() => $$(el, '[part~="answer-text"]').some((n) => n.textContent === 'Seen.'), 'the answer');
    const [body] = await bodies();
    const expected: UserContentPart[] = [
      { type: 'text', text: 'Look at these' },
      { type: 'image_url', image_url: { url: await dataUrlOf(small, 'image/png') } },
      { type: 'text', text: '<file name="notes.md">\n# Notes\n- one ✅\n\n</file>' },
    ];
    expect(JSON.stringify(body!.messages.at(-1))).toBe(JSON.stringify({ role: 'user', content: expected }));
    // the previews left the composer; the bubble shows the text, a thumbnail and a file chip
    expect(previews(el)).toHaveLength(0);
    await until(() => $$(el, '[part~="attachment-thumb"]').length === 1, 'the sent thumbnail');
    const bubble = $(el, '[part~="user"]')!;
    expect(bubble.querySelector('[part~="message-text"]')!.textContent).toBe('Look at these');
    expect(bubble.querySelector<HTMLImageElement>('[part~="attachment-thumb"] img')!.src).toMatch(/^blob:/);
    expect(bubble.querySelector('[part~="attachment-chip"]')!.textContent).toContain('notes.md');
    await chaiExpect(el).to.be.accessible();
  });

  it('a large photo is scaled to maxImageSide (decoded size checked), EXIF orientation applied', async () => {
    const { llm, bodies } = await scriptedLlm('One.', 'Two.');
    const el = await chatFixture((c) => (c.agent = new Agent({ llm })));
    const big = await pngFile('big.png', 4096, 1024);
    await pick(el, big);
    await waitPreviews(el, 1);
    textarea(el).value = 'big';
    sendButton(el).click();
    await until(() => $$(el, '[part~="answer-text"]').length === 1, 'the first answer');
    const sent = (await bodies())[0]!.messages.at(-1)!.content as UserContentPart[];
    const image = sent[1] as Extract<UserContentPart, { type: 'image_url' }>;
    expect(image.image_url.url.startsWith('data:image/png;base64,')).toBe(true);
    const scaled = await imageSize(image.image_url.url);
    expect([scaled.width, scaled.height]).toEqual([2048, 512]);
    console.log(`scaling: ${big.size} B original (4096×1024 PNG) → ${scaled.bytes} B sent (2048×512), request body ${JSON.stringify((await bodies())[0]).length} B`);

    el.maxImageSide = 100;
    await pick(el, await rotatedJpeg('turned.jpg', 40, 20));
    await waitPreviews(el, 1);
    textarea(el).value = 'turned';
    sendButton(el).click();
    await until(() => $$(el, '[part~="answer-text"]').length === 2, 'the second answer');
    const turned = ((await bodies())[1]!.messages.at(-1)!.content as UserContentPart[])[1] as Extract<UserContentPart, { type: 'image_url' }>;
    expect(turned.image_url.url.startsWith('data:image/jpeg;base64,')).toBe(true);
    // stored 40×20 with "rotate 90°": the pixels sent stand upright, 20×40
    const upright = await imageSize(turned.image_url.url);
    expect([upright.width, upright.height]).toEqual([20, 40]);
  });

  it('pasted files (a synthetic ClipboardEvent) and dropped files (DataTransfer) are sent the same way', async () => {
    const { llm, bodies } = await scriptedLlm('Pasted.', 'Dropped.');
    const el = await chatFixture((c) => (c.agent = new Agent({ llm })));
    const shot = await pngFile('image.png', 10, 10);
    const paste = new ClipboardEvent('paste', { clipboardData: transfer(shot), bubbles: true, cancelable: true, composed: true });
    textarea(el).dispatchEvent(paste);
    expect(paste.defaultPrevented).toBe(true); // files only: nothing to paste as text
    await waitPreviews(el, 1);
    textarea(el).value = 'pasted';
    textarea(el).dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
    await until(() => $$(el, '[part~="answer-text"]').length === 1, 'the first answer');
    expect((await bodies())[0]!.messages.at(-1)).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'pasted' }, { type: 'image_url', image_url: { url: await dataUrlOf(shot, 'image/png') } }],
    });

    const timeline = $(el, '[part~="timeline"]')!;
    const dt = transfer(md());
    timeline.dispatchEvent(new DragEvent('dragenter', { dataTransfer: dt, bubbles: true, composed: true, cancelable: true }));
    timeline.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, composed: true, cancelable: true }));
    await until(() => $(el, '[part~="drop-target"]') !== null, 'the drop target');
    const target = $(el, '[part~="drop-target"]')!;
    expect(target.textContent).toBe('Drop files to attach');
    expect(target.getBoundingClientRect().height).toBeGreaterThan(100);
    const drop = new DragEvent('drop', { dataTransfer: dt, bubbles: true, composed: true, cancelable: true });
    timeline.dispatchEvent(drop);
    expect(drop.defaultPrevented).toBe(true);
    await waitPreviews(el, 1);
    expect($(el, '[part~="drop-target"]')).toBeNull();
    // a file alone (no text) can be sent
    sendButton(el).click();
    await until(() => $$(el, '[part~="answer-text"]').length === 2, 'the second answer');
    expect((await bodies())[1]!.messages.at(-1)).toEqual({
      role: 'user',
      content: [{ type: 'text', text: '<file name="notes.md">\n# Notes\n- one ✅\n\n</file>' }],
    });
  });

  it('the first drag over a fresh element shows the drop target, and leaving hides it', async () => {
    const el = await chatFixture();
    const dt = transfer(md());
    el.dispatchEvent(new DragEvent('dragenter', { dataTransfer: dt, bubbles: true, composed: true, cancelable: true }));
    await until(() => $(el, '[part~="drop-target"]') !== null, 'the drop target');
    expect(getComputedStyle($(el, '[part~="drop-target"]')!).position).toBe('absolute');
    el.dispatchEvent(new DragEvent('dragleave', { dataTransfer: dt, bubbles: true, composed: true, cancelable: true }));
    await el.updateComplete;
    expect($(el, '[part~="drop-target"]')).toBeNull();
  });

  it('src: the default body adds the content parts only when files came with the message', async () => {
    const el = await chatFixture((c) => (c.src = `${api}/wire/echo`));
    const seen: string[] = [];
    el.addEventListener('pagent-event', (e) => {
      const ev = e.detail.event as WireEvent;
      if (ev.method === 'RunBegin') seen.push(ev.params.user_input);
    });
    el.send('plain');
    await until(() => seen.length === 1, 'the first echo');
    expect(JSON.parse(JSON.parse(seen[0]!).body)).toEqual({ message: 'plain' });
    await pick(el, md());
    await waitPreviews(el, 1);
    textarea(el).value = 'with a file';
    sendButton(el).click();
    await until(() => seen.length === 2, 'the second echo');
    expect(JSON.parse(JSON.parse(seen[1]!).body)).toEqual({
      message: 'with a file',
      content: [{ type: 'text', text: 'with a file' }, { type: 'text', text: '<file name="notes.md">\n# Notes\n- one ✅\n\n</file>' }],
    });
  });

  it('body(text, sessionId, attachments) gets the attachments', async () => {
    const calls: unknown[][] = [];
    const el = await chatFixture((c) => {
      c.src = `${api}/wire/echo`;
      c.body = (...args) => {
        calls.push(args);
        return { q: args[0] };
      };
    });
    await pick(el, md());
    await waitPreviews(el, 1);
    textarea(el).value = 'x';
    sendButton(el).click();
    await until(() => calls.length === 1, 'the body call');
    expect(calls[0]![0]).toBe('x');
    expect(calls[0]![1]).toBeUndefined();
    expect((calls[0]![2] as Array<{ name: string; kind: string }>).map((a) => [a.name, a.kind])).toEqual([['notes.md', 'text']]);
  });
});

describe('<pagent-chat> attachment limits and errors', () => {
  it('refuses oversize, unsupported and unreadable files with a sentence each; the text and other files stay', async () => {
    const el = await chatFixture((c) => (c.maxAttachmentBytes = 1000));
    textarea(el).value = 'draft I am writing';
    await pick(el, md());
    await waitPreviews(el, 1);
    const big = new File([new Uint8Array(5000)], 'huge.txt', { type: 'text/plain' });
    const zip = new File([new Uint8Array(10)], 'archive.zip', { type: 'application/zip' });
    const broken = new File([new Uint8Array([1, 2, 3, 4])], 'broken.png', { type: 'image/png' });
    const latin1 = new File([new Uint8Array([0x63, 0x61, 0x66, 0xe9])], 'café.txt', { type: 'text/plain' });
    await pick(el, big, zip, broken, latin1);
    await until(() => $(el, '[part~="attachment-error"]') !== null, 'the refusals');
    const sentences = $$(el, '[part~="attachment-error"] p').map((p) => p.textContent);
    expect(sentences).toEqual([
      '“huge.txt” is 4.9 KiB: files can be at most 1,000 B.',
      '“archive.zip” is not a type of file this chat takes.',
      '“broken.png” could not be read.',
      '“café.txt” could not be read.',
    ]);
    expect($(el, '[part~="attachment-error"]')!.getAttribute('role')).toBe('alert');
    expect(previews(el)).toHaveLength(1);
    expect(textarea(el).value).toBe('draft I am writing');
  });

  it('refuses files past the total cap, and says so in Japanese and Chinese', async () => {
    const el = await chatFixture((c) => {
      c.lang = 'ja';
      // each file is sent as a text part of 57 bytes (its name and text wrapped): the second passes 100
      c.maxTotalAttachmentBytes = 100;
    });
    await pick(el, new File(['a'.repeat(30)], 'a.txt', { type: 'text/plain' }), new File(['b'.repeat(30)], 'b.txt', { type: 'text/plain' }));
    await until(() => $(el, '[part~="attachment-error"]') !== null, 'the refusal');
    expect($(el, '[part~="attachment-error"]')!.textContent!.trim()).toBe('「b.txt」を追加できませんでした。1 つのメッセージに添付できるのは合計 100 B までです。');
    expect(previews(el)).toHaveLength(1);
    // files picked right after the language changed, before its strings loaded
    el.lang = 'zh-CN';
    await pick(el, new File(['x'], 'x.exe', { type: 'application/x-msdownload' }));
    await until(() => $(el, '[part~="attachment-error"]')?.textContent?.includes('x.exe') === true, 'the Chinese refusal');
    expect($(el, '[part~="attachment-error"]')!.textContent!.trim()).toBe('不支持“x.exe”的文件类型。');
    await until(() => $(el, '[part~="attach-button"]')!.getAttribute('aria-label') === '添加附件', 'the Chinese label');
  });

  it('a pending file is removed with its keyboard-reachable button; accept="" hides the button and refuses drops', async () => {
    const el = await chatFixture();
    await pick(el, md(), await pngFile('p.png', 8, 8));
    await waitPreviews(el, 2);
    const remove = $$<HTMLButtonElement>(el, '[part~="attachment-remove"]');
    expect(remove.map((b) => b.getAttribute('aria-label'))).toEqual(['Remove notes.md', 'Remove p.png']);
    expect(remove[0]!.tabIndex).toBe(0);
    remove[0]!.focus();
    remove[0]!.click();
    await waitPreviews(el, 1);
    expect(previews(el)[0]!.textContent).toContain('p.png');
    el.accept = '';
    await el.updateComplete;
    expect($(el, '[part~="attach-button"]')).toBeNull();
    const drop = new DragEvent('drop', { dataTransfer: transfer(md()), bubbles: true, composed: true, cancelable: true });
    el.dispatchEvent(drop);
    expect(drop.defaultPrevented).toBe(false);
  });

  it('accept narrows the types: only PDFs, sent as file parts', async () => {
    const { llm, bodies } = await scriptedLlm('ok');
    const el = await chatFixture((c) => {
      c.accept = 'application/pdf,.pdf';
      c.agent = new Agent({ llm });
    });
    const pdf = new File(['%PDF-1.4 test'], 'paper.pdf', { type: 'application/pdf' });
    await pick(el, pdf, md());
    await until(() => previews(el).length === 1 && $(el, '[part~="attachment-error"]') !== null, 'one preview and one refusal');
    sendButton(el).click();
    await until(() => $$(el, '[part~="answer-text"]').length === 1, 'the answer');
    expect((await bodies())[0]!.messages.at(-1)).toEqual({
      role: 'user',
      content: [{ type: 'file', file: { filename: 'paper.pdf', file_data: `data:application/pdf;base64,${btoa('%PDF-1.4 test')}` } }],
    });
  });
});

describe('<pagent-chat> sent attachments', () => {
  it('Retry sends the failed run\'s files again, and the agent keeps one user message', async () => {
    const key = crypto.randomUUID();
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
      id: 'c', object: 'chat.completion.chunk', created: 0, model: 'scripted', choices: [{ index: 0, delta, finish_reason: finish }],
    });
    await fetch(`${api}/replay/_script/${key}`, {
      method: 'POST',
      body: JSON.stringify({ responses: [{ status: 500, body: '{"error":{"message":"down"}}' }, { chunks: [chunk({ content: 'Back.' }), chunk({}, 'stop')] }] }),
    });
    const { LLM } = await import('../../../src/agent/llm/llm.js');
    const agent = new Agent({ llm: new LLM('scripted', { baseURL: `${api}/replay/_script/${key}/v1`, retries: 0 }) });
    const el = await chatFixture((c) => (c.agent = agent));
    await pick(el, md());
    await waitPreviews(el, 1);
    textarea(el).value = 'read this';
    sendButton(el).click();
    await until(() => $(el, '[part~="retry-button"]') !== null, 'the error card');
    $<HTMLButtonElement>(el, '[part~="retry-button"]')!.click();
    await until(() => $$(el, '[part~="answer-text"]').some((n) => n.textContent === 'Back.'), 'the retried answer');
    const bodies = (await (await fetch(`${api}/replay/_script/${key}/requests`)).json()) as Array<{ messages: unknown[] }>;
    const expected = { role: 'user', content: [{ type: 'text', text: 'read this' }, { type: 'text', text: '<file name="notes.md">\n# Notes\n- one ✅\n\n</file>' }] };
    expect(bodies.map((b) => b.messages)).toEqual([[expected], [expected]]);
    expect(agent.session.messages.filter((m) => m.role === 'user')).toHaveLength(1);
  });

  it('a thumbnail opens the image larger in a modal dialog that Escape closes, focus going back', async () => {
    const { llm } = await scriptedLlm('ok');
    const el = await chatFixture((c) => (c.agent = new Agent({ llm })));
    await pick(el, await pngFile('photo.png', 300, 200));
    await waitPreviews(el, 1);
    sendButton(el).click();
    await until(() => $(el, '[part~="attachment-thumb"]') !== null, 'the thumbnail');
    const thumb = $<HTMLButtonElement>(el, '[part~="attachment-thumb"]')!;
    expect(thumb.getAttribute('aria-label')).toBe('View photo.png larger');
    thumb.focus();
    thumb.click();
    await until(() => $(el, 'dialog[open]') !== null, 'the dialog');
    const dialog = $<HTMLDialogElement>(el, 'dialog')!;
    expect(dialog.getAttribute('aria-label')).toBe('photo.png');
    expect(dialog.querySelector('img')!.alt).toBe('photo.png');
    expect(el.shadowRoot!.activeElement).toBe(dialog.querySelector('[part~="viewer-close"]'));
    await chaiExpect(el).to.be.accessible();
    dialog.dispatchEvent(new Event('cancel'));
    dialog.close();
    await until(() => $(el, 'dialog') === null, 'the dialog to close');
    expect(el.shadowRoot!.activeElement).toBe(thumb);
  });
});
