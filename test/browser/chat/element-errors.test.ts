// Error cards (issue 10, items 7 and 14): a short sentence per failure kind in the element's language, the
// details behind a disclosure, and untrusted text bidi-isolated.
import { describe, expect, inject, it } from 'vitest';
import { Agent } from '../../../src/agent/agent.js';
import { LLM, type LLMOptions } from '../../../src/agent/llm/llm.js';
import { $, chatFixture, END, pushAll, until } from './helpers.js';

const api = inject('apiUrl');
const script = (steps: string) => `${api}/llm/script/${crypto.randomUUID()}/${steps}/v1`;

/** Runs one message through an Agent on a real LLM against the local server, and returns the error card. */
async function failWith(lang: string, baseURL: string, options: Partial<LLMOptions> = {}) {
  const el = await chatFixture((e) => {
    e.lang = lang;
    e.agent = new Agent({ llm: new LLM('scripted', { baseURL, retries: 0, ...options }) });
  });
  el.send('Hello');
  await until(() => $(el, '[part~="error"]') !== null && !el.streaming, 'the error card');
  await el.updateComplete;
  const card = $(el, '[part~="error"]')!;
  const details = card.querySelector('details')!;
  return {
    title: card.querySelector('.error-title')!.textContent!.trim(),
    details,
    summary: details.querySelector('summary')!.textContent!.trim(),
    kind: card.dataset['kind'],
    // what shows while the disclosure is closed
    visible: [...card.childNodes].filter((n) => n !== details).map((n) => n.textContent ?? '').join('').replace(/\s+/g, ' ').trim(),
  };
}

describe('error cards name the kind of failure in the user language (item 14)', () => {
  const cases: Array<[kind: string, baseURL: () => string, options: Partial<LLMOptions>, ja: string]> = [
    ['unreachable', () => 'http://127.0.0.1:9/v1', {}, 'サーバーに接続できませんでした。アドレスと、サーバーが起動しているかを確認してください。'],
    ['cors', () => script('nocors'), {}, 'サーバーがこのページからのリクエストを拒否しました（CORS）。このサイトのオリジンを許可する必要があります。'],
    ['auth', () => script('s401'), {}, 'API キーが受け付けられませんでした。キーを確認してください。'],
    ['not-found', () => script('s404'), {}, 'このアドレスには何も見つかりませんでした。URL のパスとモデル名を確認してください。'],
    ['rate-limit', () => script('s429'), {}, 'リクエストが多すぎます（レート制限中）。少し待ってから再試行してください。'],
    ['server', () => script('s503'), {}, 'サーバーで問題が発生しました（HTTP 503）。しばらくしてから再試行してください。'],
    ['cut', () => script('end'), {}, '回答が完了する前に途切れました。'],
    ['timeout', () => script('stall'), { timeoutMs: 300 }, 'サーバーの応答に時間がかかりすぎました。'],
  ];

  it.each(cases)('%s: one Japanese sentence, the SDK message and codes only behind the disclosure', async (kind, baseURL, options, ja) => {
    const card = await failWith('ja', baseURL(), options);
    expect(card.kind).toBe(kind);
    expect(card.title).toBe(ja);
    expect(card.summary).toBe('詳細');
    expect(card.details.open).toBe(false);
    expect(card.visible).not.toMatch(/llm|network|http ·|Network error|CORS: Access/);
    expect(card.details.querySelector('.error-message')!.textContent!.length).toBeGreaterThan(10);
  });

  it('speaks Simplified Chinese and English too', async () => {
    expect((await failWith('zh-CN', script('s401'))).title).toBe('API 密钥未被接受，请检查密钥。');
    expect((await failWith('zh-CN', 'http://127.0.0.1:9/v1')).title).toBe('无法连接到服务器。请检查地址，并确认服务器正在运行。');
    const en = await failWith('en', script('s404'));
    expect(en.title).toBe('Nothing was found at this address. Check the URL path and the model name.');
    expect(en.summary).toBe('Details');
  });

  it('shows a different sentence for an unreachable server and a CORS refusal (not one CORS paragraph for every failure)', async () => {
    const unreachable = await failWith('en', 'http://127.0.0.1:9/v1');
    const cors = await failWith('en', script('nocors'));
    expect(unreachable.title).toBe('Could not reach the server. Check the address and that the server is running.');
    expect(cors.title).toBe('The server refused requests from this page (CORS). It must allow this site’s origin.');
  });
});

describe('untrusted text in an error line is bidi-isolated (item 7)', () => {
  it('puts the message, code and where each in its own <bdi>', async () => {
    const RLO = '\u202E';
    const el = await chatFixture();
    await pushAll(el, [
      { method: 'RunBegin', params: { user_input: 'q' } },
      { method: 'RunError', params: { message: `${RLO}evil message`, code: `http${RLO}x`, where: `${RLO}llm`, status: 502 } },
      { method: 'RunEnd', params: { ...END, stop_reason: 'error' } },
    ]);
    const card = $(el, '[part~="error"]')!;
    const isolated = [...card.querySelectorAll('bdi')].map((b) => b.textContent);
    expect(isolated).toEqual([`${RLO}evil message`, `http${RLO}x`, `${RLO}llm`]);
    // nothing untrusted sits outside an isolate
    const outside = [...card.querySelectorAll('p')].flatMap((p) =>
      [...p.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent ?? ''),
    );
    expect(outside.join('')).not.toContain(RLO);
    expect(card.querySelector('.error-code')!.textContent!.replace(/\s+/g, ' ').trim()).toBe(`http${RLO}x · 502 · ${RLO}llm`);
  });
});
