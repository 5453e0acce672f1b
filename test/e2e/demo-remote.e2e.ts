import { describe, expect, it } from 'vitest';
import { builtDemo, send } from './built-demo.js';

// The built demo's stateless back ends — an AI SDK route and an AG-UI agent — held by a RemoteAgent: the
// second message's answer comes from a back end that was sent the first turn, the page runs the back
// end's `region` call, an approval goes through the card's buttons, and a reload reopens the conversation.
const demo = builtDemo();

describe('the demo with its AI SDK and AG-UI back ends', () => {
  it.each([['remote-ai-sdk'], ['remote-ag-ui']])('%s: tools of the server and of the page, an approval, and the conversation kept across a reload', async (source) => {
    const requests: Array<Record<string, unknown>> = [];
    const { context, page, errors } = await demo.open(`?source=${source}`, {
      beforeLoad: (p) =>
        p.on('request', (r) => {
          if (r.url().includes('/demo/api/') && r.method() === 'POST') requests.push(JSON.parse(r.postData() ?? '{}') as Record<string, unknown>);
        }),
    });
    const chat = page.locator('pagent-chat');
    const answers = chat.locator('[part~="answer-text"]');

    await send(page, "What's the weather in Tokyo?");
    await expect.poll(() => answers.last().textContent()).toContain('21° celsius in Tokyo right now.');

    await send(page, 'Where am I?');
    await expect.poll(() => answers.last().textContent()).toContain('the page ran region');

    await send(page, 'Remind me to stretch in an hour.');
    await chat.locator('[part~="approve-button"]').click();
    await expect.poll(() => answers.last().textContent()).toContain('the reminder is set');
    await page.screenshot({ path: `test-results/demo-${source}.png`, fullPage: true });

    // every request carried the whole conversation: the last one holds all three user messages
    const last = requests.at(-1)!;
    const texts = JSON.stringify(last['messages']);
    for (const said of ["What's the weather in Tokyo?", 'Where am I?', 'Remind me to stretch in an hour.']) expect(texts).toContain(said);

    await page.reload();
    await page.waitForSelector('body[data-ready]');
    await expect.poll(() => chat.locator('[part~="message"][part~="user"]').count()).toBe(3);
    expect(errors).toEqual([]);
    await context.close();
  });
});
