import { describe, expect, it } from 'vitest';
import type { Response } from 'playwright-core';
import { builtDemo, send } from './built-demo.js';

// The built demo's wire server switched to AG-UI and to the AI SDK UI message stream: the element reads
// what the Agent in Node writes in each protocol, and the wire log shows that protocol's raw lines.
const demo = builtDemo();

describe('the demo wire server in other protocols', () => {
  it.each([
    ['wire-ag-ui', '"type":"TOOL_CALL_START"', 'text/event-stream', null],
    ['wire-ai-sdk', '"type":"tool-input-available"', 'text/event-stream', 'v1'],
  ])('%s: a tool call and the answer, and the raw lines of that protocol in the wire log', async (source, rawLine, contentType, marker) => {
    let response!: Promise<Response>;
    const { context, page, errors } = await demo.open(`?source=${source}`, {
      beforeLoad: (p) => void (response = p.waitForResponse((r) => r.url().includes('/demo/api/chat'))),
    });
    await send(page, "What's the weather in Tokyo?");
    const headers = (await response).headers();
    expect(headers['content-type']).toBe(contentType);
    expect(headers['x-vercel-ai-ui-message-stream'] ?? null).toBe(marker);
    const card = page.locator('pagent-chat [part~="tool-call"]');
    await expect.poll(() => card.getAttribute('data-status')).toBe('ok');
    expect(await card.locator('[part="weather-city"]').textContent()).toBe('Tokyo'); // the demo's weather card
    const answer = page.locator('pagent-chat [part~="answer-text"]').last();
    await expect.poll(() => answer.textContent()).toContain('21° celsius in Tokyo right now.');
    await page.locator('pagent-chat [part="wire-log"] summary').click();
    await expect.poll(() => page.locator('pagent-chat [part~="wire-line"]', { hasText: rawLine }).count()).toBeGreaterThan(0);
    expect(await page.locator('pagent-chat [part~="wire-line-error"]').count()).toBe(0);
    await page.screenshot({ path: `test-results/demo-${source}.png`, fullPage: true });
    expect(errors).toEqual([]);
    await context.close();
  });
});
