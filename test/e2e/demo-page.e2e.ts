// The demo page as a newcomer meets it (issue 10, "The demo"; item 16's reload): the own-endpoint key,
// URL checks, a tool that needs approval, the URL keeps source and language, the whole page themed and
// localised, the scripted model in zh-CN and ja, a full-viewport layout on desktop and at 375 px.
import { describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { builtDemo, send, streaming, type DemoPage } from './built-demo.js';

const demo = builtDemo();
const openDemo = (query = '', viewport = { width: 1280, height: 800 }, colorScheme: 'light' | 'dark' = 'light'): Promise<DemoPage> =>
  demo.open(query, { viewport, colorScheme });

const lastAnswer = (page: Page) => page.locator('pagent-chat [part~="answer-text"]').last();

describe('your own endpoint', () => {
  it('keeps the key for the page: changing only the model still sends it', async () => {
    const { context, page, errors } = await openDemo('?source=own');
    const auth: Array<string | undefined> = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/demo/v1/chat/completions')) auth.push(r.headers()['authorization']);
    });
    await page.locator('[name=baseURL]').fill(new URL('demo/v1', demo.url).href);
    await page.locator('[name=model]').fill('model-a');
    await page.locator('[name=apiKey]').fill('sk-demo-Q9x2LmA7vB3n');
    await page.locator('#endpoint button[type=submit]').click();
    await send(page, 'Hello');
    await expect.poll(() => lastAnswer(page).textContent()).toContain('local scripted model');
    await expect.poll(() => streaming(page)).toBe(false);

    await page.locator('[name=model]').fill('model-b');
    await page.locator('#endpoint button[type=submit]').click();
    await expect.poll(() => page.locator('#status').textContent()).toContain('model-b');
    await send(page, 'Hello again');
    await expect.poll(() => auth.length).toBe(2);
    expect(auth).toEqual(['Bearer sk-demo-Q9x2LmA7vB3n', 'Bearer sk-demo-Q9x2LmA7vB3n']);
    // the key is in no storage: not in localStorage, not in the session store
    const stored = await page.evaluate(() => JSON.stringify(localStorage));
    expect(stored).not.toContain('sk-demo');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('speaks the API chosen in the form: Anthropic Messages with the key as x-api-key, remembered with the endpoint', async () => {
    const { context, page, errors } = await openDemo('?source=own&lang=ja');
    expect(await page.locator('[name=api] option[value=anthropic-messages]').textContent()).toBe('Anthropic Messages');
    expect(await page.locator('[data-text=apiChat]').textContent()).toBe('Chat Completions（OpenAI 互換）');
    await page.locator('[name=api]').selectOption('anthropic-messages');
    expect(await page.locator('[name=baseURL]').getAttribute('placeholder')).toBe('https://api.anthropic.com/v1');
    const key = `demo${Date.now().toString(36)}`;
    await page.locator('[name=baseURL]').fill(`${inject('apiUrl')}/apis/${key}/parity-4/v1`);
    await page.locator('[name=model]').fill('claude-sonnet-4-5');
    await page.locator('[name=apiKey]').fill('sk-ant-demo-Q9x2LmA7vB3n');
    await page.locator('#endpoint button[type=submit]').click();
    await send(page, 'Hello');
    await expect.poll(() => lastAnswer(page).textContent()).toBe('Tokyo is 21 °C.');
    const recorded = (await (await fetch(`${inject('apiUrl')}/apis/attempts/${key}`)).json()) as { requests: Array<{ headers: Record<string, string> }> };
    expect(recorded.requests.map((r) => [r.headers['x-api-key'], r.headers['anthropic-version'], r.headers['authorization']])).toEqual([['sk-ant-demo-Q9x2LmA7vB3n', '2023-06-01', undefined]]);
    // a reload brings the endpoint back with its API (the key stays unstored)
    await page.reload();
    await page.waitForSelector('body[data-ready]');
    expect(await page.locator('[name=api]').inputValue()).toBe('anthropic-messages');
    expect(await page.evaluate(() => JSON.stringify(localStorage))).not.toContain('sk-ant-demo');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('checks the URL scheme before using it, and says so in the page language', async () => {
    const { context, page, errors } = await openDemo('?source=own&lang=ja');
    let requests = 0;
    page.on('request', (r) => {
      if (r.url().includes('chat/completions')) requests++;
    });
    await page.locator('[name=baseURL]').fill('localhost:8787/v1');
    await page.locator('[name=model]').fill('m');
    await page.locator('#endpoint button[type=submit]').click();
    await expect.poll(() => page.locator('#status').textContent()).toBe('ベース URL は http:// か https:// で始めてください（入力：「localhost:8787/v1」）。');
    expect(requests).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('a tool that needs approval', () => {
  it('shows Approve and Deny on the card; approving runs it, denying does not', async () => {
    const { context, page, errors } = await openDemo('?source=local');
    const card = page.locator('pagent-chat [part~="tool-call"]').last();
    await page.locator('pagent-chat [slot="suggestions"]', { hasText: 'Tool that needs approval' }).click();
    await expect.poll(() => card.getAttribute('data-status')).toBe('awaiting-approval');
    expect(await card.locator('[part="tool-name"]').textContent()).toBe('create_reminder');
    await page.screenshot({ path: 'test-results/demo-approval.png' });
    await card.locator('[part="approve-button"]').click();
    await expect.poll(() => lastAnswer(page).textContent()).toBe('Done: the reminder is set.');
    expect(await card.getAttribute('data-status')).toBe('ok');

    await expect.poll(() => streaming(page)).toBe(false);
    await send(page, 'Remind me to drink water in an hour.');
    await expect.poll(() => card.getAttribute('data-status')).toBe('awaiting-approval');
    await card.locator('[part="deny-button"]').click();
    await expect.poll(() => lastAnswer(page).textContent()).toBe('You declined, so no reminder was set.');
    expect(await card.getAttribute('data-status')).toBe('denied');
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('the URL, the language and the theme', () => {
  it('keeps the source and the language in the URL, so a reload shows the same page', async () => {
    const { context, page, errors } = await openDemo();
    await page.locator('#source').selectOption('local');
    await page.locator('#lang').selectOption('zh-CN');
    await page.locator('#theme').selectOption('dark');
    expect(new URL(page.url()).search).toBe('?source=local&lang=zh-CN&theme=dark');
    await page.reload();
    await page.waitForSelector('body[data-ready]');
    expect(await page.locator('#source').inputValue()).toBe('local');
    expect(await page.locator('#lang').inputValue()).toBe('zh-CN');
    expect(await page.locator('h1').textContent()).toBe('pagent-web 演示');
    expect(await page.evaluate(() => document.querySelector('pagent-chat')!.getAttribute('theme'))).toBe('dark');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('localises its own labels and suggestions in zh-CN and ja', async () => {
    for (const [lang, label, chip, h1] of [
      ['zh-CN', '来源', '东京天气', 'pagent-web 演示'],
      ['ja', 'ソース', '東京の天気', 'pagent-web デモ'],
    ] as const) {
      const { context, page, errors } = await openDemo(`?lang=${lang}`);
      expect(await page.locator('h1').textContent()).toBe(h1);
      expect(await page.locator('label span').first().textContent()).toBe(label);
      expect(await page.locator('pagent-chat [slot="suggestions"]').first().textContent()).toBe(chip);
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang);
      expect(errors).toEqual([]);
      await context.close();
    }
  });

  it('themes the whole page, not only the element', async () => {
    const { context, page, errors } = await openDemo('?theme=dark');
    const colors = await page.evaluate(() => {
      const chat = document.querySelector('pagent-chat')!;
      return { body: getComputedStyle(document.body).backgroundColor, chat: getComputedStyle(chat).backgroundColor, text: getComputedStyle(document.body).color };
    });
    const luminance = (rgb: string) => {
      const [r, g, b] = rgb.match(/\d+/g)!.map(Number);
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    expect(luminance(colors.body)).toBeLessThan(40);
    expect(luminance(colors.chat)).toBeLessThan(40);
    expect(luminance(colors.text)).toBeGreaterThan(180);
    // "auto" follows the system
    const auto = await openDemo('', undefined, 'dark');
    expect(luminance(await auto.page.evaluate(() => getComputedStyle(document.body).backgroundColor))).toBeLessThan(40);
    expect(errors).toEqual([]);
    await auto.context.close();
    await context.close();
  });
});

describe('the scripted model in every language of the demo', () => {
  it('answers the Japanese and Chinese sample weather questions about Tokyo, in that language', async () => {
    for (const [lang, answer, city] of [
      ['ja', '東京は今 21°C です。', '東京'],
      ['zh-CN', '所以东京现在是 21°C。', '东京'],
    ] as const) {
      const { context, page, errors } = await openDemo(`?lang=${lang}`);
      await page.locator('pagent-chat [slot="suggestions"]').first().click();
      await expect.poll(() => lastAnswer(page).textContent()).toContain(answer);
      expect(await page.locator('pagent-chat [part="weather-city"]').textContent()).toBe(city); // the demo's weather card, in the question's script
      expect(errors).toEqual([]);
      await context.close();
    }
  });
});

describe('the layout uses the viewport', () => {
  it('fills a desktop window with the chat', async () => {
    const { context, page } = await openDemo();
    const chat = await page.locator('pagent-chat').boundingBox();
    expect(chat!.height).toBeGreaterThan(800 * 0.8);
    expect(chat!.y + chat!.height).toBeLessThanOrEqual(800);
    await context.close();
  });

  it('at 375 px the header shows the whole status and the whole name of every source, in every language', async () => {
    for (const lang of ['en', 'zh-CN', 'ja']) {
      const { context, page, errors } = await openDemo(`?lang=${lang}`, { width: 375, height: 667 });
      const sources = await page.locator('#source option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
      for (const source of sources.filter((s) => s !== 'own')) {
        await page.locator('#source').selectOption(source);
        const cut = await page.evaluate(() => {
          const status = document.querySelector<HTMLElement>('#status')!;
          const select = document.querySelector<HTMLSelectElement>('#source')!;
          const style = getComputedStyle(select);
          const context = document.createElement('canvas').getContext('2d')!;
          context.font = style.font;
          const text = context.measureText(select.selectedOptions[0]!.text).width;
          // the room for the chosen option's text: the box without its padding and the arrow (about 1.5em)
          const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 1.5 * parseFloat(style.fontSize);
          const box = (e: Element) => e.getBoundingClientRect();
          return {
            status: status.scrollWidth > status.clientWidth || box(status).right > innerWidth,
            source: text > room || box(select).right > innerWidth,
            page: document.documentElement.scrollWidth > innerWidth,
          };
        });
        expect(cut, `${lang} ${source}`).toEqual({ status: false, source: false, page: false });
      }
      expect(errors).toEqual([]);
      await context.close();
    }
  });

  it('at 375 px the suggestions keep to one row and the timeline has most of the chat', async () => {
    const { context, page } = await openDemo('', { width: 375, height: 667 });
    await send(page, 'Please think before you answer.');
    await expect.poll(() => lastAnswer(page).textContent()).toContain('42');
    const boxes = await page.evaluate(() => {
      const chat = document.querySelector('pagent-chat')!;
      const timeline = chat.shadowRoot!.querySelector('[part="timeline"]')!.getBoundingClientRect();
      const chips = [...chat.querySelectorAll('[slot="suggestions"]')].map((c) => Math.round(c.getBoundingClientRect().top));
      return { chat: chat.getBoundingClientRect().height, timeline: timeline.height, rows: new Set(chips).size, page: document.documentElement.scrollHeight };
    });
    expect(boxes.rows).toBe(1);
    expect(boxes.timeline / boxes.chat).toBeGreaterThan(0.55);
    expect(boxes.page).toBeLessThanOrEqual(667);
    await context.close();
  });
});

describe('after a reload (item 16)', () => {
  it('reopens the conversation the agent source showed, highlighted in the list', async () => {
    const { context, page, errors } = await openDemo('?source=local');
    await send(page, 'Please think before you answer.');
    await expect.poll(() => lastAnswer(page).textContent()).toContain('is still the answer.');
    await expect.poll(() => page.locator('pagent-chat [part="session"]').count()).toBe(1);
    await page.reload();
    await page.waitForSelector('body[data-ready]');
    await expect.poll(() => page.locator('pagent-chat [part~="user"]').first().textContent()).toContain('Please think before you answer.');
    const current = page.locator('pagent-chat [part="session"][aria-current="true"] [part="session-title"]');
    await expect.poll(() => current.textContent()).toBe('Please think before you answer.');
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('screenshots (looked at, not compared)', () => {
  const shots: Array<[name: string, query: string, viewport: { width: number; height: number }, scheme: 'light' | 'dark', message: string]> = [
    ['light', '?source=local&theme=light', { width: 1280, height: 800 }, 'light', "What's the weather in Tokyo?"],
    ['dark', '?source=local&theme=dark', { width: 1280, height: 800 }, 'dark', 'Please think before you answer.'],
    ['375-light', '', { width: 375, height: 667 }, 'light', "What's the weather in Tokyo?"],
    ['375-dark', '?theme=dark&source=local', { width: 375, height: 667 }, 'dark', 'Please fail.'],
    ['en', '?lang=en', { width: 1000, height: 760 }, 'light', ''],
    ['zh-CN', '?lang=zh-CN&source=local', { width: 1000, height: 760 }, 'light', '东京的天气怎么样？'],
    ['ja', '?lang=ja', { width: 1000, height: 760 }, 'light', '東京の天気は？'],
  ];
  it.each(shots)('%s', async (name, query, viewport, scheme, message) => {
    const { context, page, errors } = await openDemo(query, viewport, scheme);
    if (message) {
      await send(page, message);
      await expect.poll(() => streaming(page)).toBe(true);
      await expect.poll(() => streaming(page)).toBe(false);
    }
    await page.screenshot({ path: `test-results/demo-${name}.png` });
    expect(errors).toEqual([]);
    await context.close();
  });
});
