import { describe, expect, it } from 'vitest';
import { builtDemo, send } from './built-demo.js';

// The built demo under `vite preview`: the path a newcomer takes with `npm run demo`.
const demo = builtDemo();

describe('the demo on its built-in default', () => {
  it('streams a tool call and a markdown answer from the local wire server', async () => {
    const { page, errors } = await demo.open();
    await send(page, "What's the weather in Tokyo?");
    const card = page.locator('pagent-chat [part~="tool-call"]');
    await expect.poll(() => card.getAttribute('data-status')).toBe('ok');
    // the demo draws get_weather calls as a weather card (the element's `renderers`)
    expect(await card.locator('[part="weather-city"]').textContent()).toBe('Tokyo');
    expect(await card.locator('[part="weather-temp"]').textContent()).toBe('21°C');
    const answer = page.locator('pagent-chat [part~="answer-text"]').last();
    await expect.poll(() => answer.textContent()).toContain('21° celsius in Tokyo right now.');
    expect(await answer.locator('strong').textContent()).toBe('21° celsius in Tokyo');
    await page.screenshot({ path: 'test-results/demo-wire.png', fullPage: true });
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('shows a provider failure from the scripted model as a readable error', async () => {
    const { page, errors } = await demo.open();
    await send(page, 'Please fail.');
    const error = page.locator('pagent-chat [part~="error"]');
    await expect.poll(() => error.textContent()).toContain('The scripted model failed on purpose (demo).');
    expect(await page.locator('pagent-chat [part~="answer-text"]').last().textContent()).toContain('Starting an answer');
    await page.screenshot({ path: 'test-results/demo-error.png', fullPage: true });
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('runs the in-browser agent against the local model and keeps the conversation in IndexedDB', async () => {
    const { page, errors } = await demo.open('?source=local&lang=ja');
    await send(page, 'Please think before you answer.');
    const answer = page.locator('pagent-chat [part~="answer-text"]').last();
    await expect.poll(() => answer.textContent()).toContain('is still the answer.');
    expect(await page.locator('pagent-chat [part~="reasoning"]').count()).toBe(1);
    // the store wrote the finished run: one session meta record, the user message and the answer with its reasoning
    const readRecords = () => page.evaluate(
      () =>
        new Promise<unknown[]>((resolve, reject) => {
          const open = indexedDB.open('pagent-demo');
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const db = open.result;
            const req = db.transaction(db.objectStoreNames[0]!).objectStore(db.objectStoreNames[0]!).getAll();
            req.onsuccess = () => resolve(req.result);
            req.onerror = () => reject(req.error);
          };
        }),
    );
    type StoredMessage = { role: string; content: string | null; reasoning_content?: string };
    const storedMessages = async () =>
      ((await readRecords()) as { message?: StoredMessage }[]).map((r) => r.message).filter((m): m is StoredMessage => m !== undefined);
    // the agent saves in the background, right after the run's events
    await expect.poll(async () => (await storedMessages()).length).toBe(2);
    const messages = await storedMessages();
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(messages[1]!.content).toContain('is still the answer.');
    expect(messages[1]!.reasoning_content).toContain('The user wants to see reasoning.');
    await page.screenshot({ path: 'test-results/demo-local-ja.png', fullPage: true });
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('continues a reopened conversation with the local agent, and New conversation starts another', async () => {
    const { page, errors } = await demo.open('?source=local');
    const rows = page.locator('pagent-chat [part="session"]');
    const current = page.locator('pagent-chat [part="session"][aria-current="true"] [part="session-title"]');
    const lastAnswer = page.locator('pagent-chat [part~="answer-text"]').last();
    await send(page, "What's the weather in Tokyo?");
    await expect.poll(() => lastAnswer.textContent()).toContain('21° celsius in Tokyo right now.');
    await expect.poll(() => current.textContent()).toBe("What's the weather in Tokyo?");

    await page.locator('pagent-chat [part="new-button"]').click();
    await send(page, 'Please think before you answer.');
    await expect.poll(() => lastAnswer.textContent()).toContain('is still the answer.');
    await expect.poll(() => rows.count()).toBe(2);
    await expect.poll(() => current.textContent()).toBe('Please think before you answer.');

    await page.locator('pagent-chat [part="session-open"]', { hasText: 'Tokyo' }).click();
    await expect.poll(() => page.locator('pagent-chat [part~="user"]').first().textContent()).toContain('Tokyo');
    await send(page, 'And the weather in Paris?');
    await expect.poll(() => lastAnswer.textContent()).toContain('18° celsius in Paris right now.');
    await expect.poll(() => current.textContent()).toBe("What's the weather in Tokyo?");
    expect(await rows.count()).toBe(2);
    // the store appended to the reopened conversation: messages per session id
    const countMessages = () => page.evaluate(
      () =>
        new Promise<Record<string, number>>((resolve, reject) => {
          const open = indexedDB.open('pagent-demo');
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const db = open.result;
            const req = db.transaction(db.objectStoreNames[0]!).objectStore(db.objectStoreNames[0]!).getAllKeys();
            req.onsuccess = () => {
              const out: Record<string, number> = {};
              for (const key of req.result) {
                if (Array.isArray(key) && key[0] === 'message') out[String(key[1])] = (out[String(key[1])] ?? 0) + 1;
              }
              resolve(out);
            };
            req.onerror = () => reject(req.error);
          };
        }),
    );
    // Tokyo: user, tool call, tool result, answer, then the same four for Paris; the other: user, answer
    await expect.poll(async () => Object.values(await countMessages()).sort()).toEqual([2, 8]);
    await page.screenshot({ path: 'test-results/demo-local-continue.png', fullPage: true });
    expect(errors).toEqual([]);
    await page.context().close();
  });
});

describe('the demo: built-in tools and the workspace', () => {
  it('asks the built-in clock on the default (no MCP server, no key)', async () => {
    const { page, errors } = await demo.open();
    await send(page, 'What time is it?');
    const card = page.locator('pagent-chat [part~="tool-call"]');
    await expect.poll(() => card.getAttribute('data-status')).toBe('ok');
    expect(await card.locator('[part~="tool-name"]').textContent()).toBe('clock');
    expect(await card.locator('[part~="tool-result"]').textContent()).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/);
    const answer = page.locator('pagent-chat [part~="answer-text"]').last();
    await expect.poll(() => answer.textContent()).toMatch(/The clock tool says it is .*\(UTC\)\./);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('the in-browser agent writes a note to its workspace and the files panel shows it', async () => {
    const { page, errors } = await demo.open('?source=local');
    await send(page, 'Please save a note about today.');
    const card = page.locator('pagent-chat [part~="tool-call"]').last();
    await expect.poll(() => card.getAttribute('data-status')).toBe('ok');
    expect(await card.locator('[part~="tool-name"]').textContent()).toBe('write_file');
    await expect.poll(() => page.locator('pagent-chat [part="file"] .file-path').allTextContents()).toContain('notes/demo.md');
    await page.screenshot({ path: 'test-results/demo-workspace.png', fullPage: true });
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
