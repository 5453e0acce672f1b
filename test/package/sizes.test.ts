import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatSizes, measureSize, overBudget, SIZE_ENTRIES, type SizeFigure } from '../../bench/sizes.js';

// `npm test` builds first (pretest): the entries are measured from dist/, the files a consumer installs.
const dist = new URL('../../dist/index.js', import.meta.url);

describe('size budgets (min+gzip of a one-line import, esbuild)', () => {
  it('every entry is within its budget', async () => {
    if (!existsSync(dist)) throw new Error('dist/ missing: run `npm run build` first');
    const figures: SizeFigure[] = [];
    for (const entry of SIZE_ENTRIES) figures.push(await measureSize(entry, 'dist'));
    const report = formatSizes(figures);
    console.log(report);
    expect(figures.every((f) => f.bytes > 1_000), report).toBe(true);
    expect(overBudget(figures).map((f) => f.name), report).toEqual([]);
  });

  it('the checker fails an entry over its budget, printing its figures', async () => {
    // a deliberately oversized fixture: the whole SDK against a 1 kB budget
    const fixture = { name: 'oversized fixture', code: `export * from 'pagent-web';`, budget: 1_000 };
    const figure = await measureSize(fixture, 'src');
    expect(figure.bytes).toBeGreaterThan(10_000);
    expect(overBudget([figure])).toEqual([figure]);
    expect(formatSizes([figure])).toMatch(/^oversized fixture: \d+\.\d\d kB min\+gzip, budget 1\.00 kB: OVER/);
  });

  it('counts chunks loaded by import() apart: the dialect readers are not in the decoder', async () => {
    const decoder = await measureSize(SIZE_ENTRIES[0]!, 'src');
    expect(decoder.lazy.length).toBeGreaterThanOrEqual(3);
    expect(decoder.lazy.every((bytes) => bytes > 0)).toBe(true);
  });

  it('keeps what only a failure, an option or wire output needs out of the chunks loaded at once', async () => {
    const loadedAtOnce = async (name: string): Promise<string[]> =>
      (await measureSize(SIZE_ENTRIES.find((e) => e.name === name)!, 'src')).modules.map((m) => m.path);
    const client = await loadedAtOnce('WireClient');
    expect(client).toContain('src/wire/client.ts');
    expect(client).not.toContain('src/wire/http-error.ts');
    expect(client).not.toContain('src/wire/network-probe.ts');
    const agent = await loadedAtOnce('Agent + LLM + tool + Session');
    expect(agent).toContain('src/agent/agent.ts');
    for (const lazy of ['src/wire/http-error.ts', 'src/wire/network-probe.ts', 'src/agent/tools/hooks.ts', 'src/wire/stream-writer.ts']) expect(agent).not.toContain(lazy);
  });

  it("keeps the element's optional panels out of its first load: the conversation list, the files panel, the question form", async () => {
    const element = await measureSize(SIZE_ENTRIES.find((e) => e.name.startsWith('pagent-chat.js'))!, 'src');
    const loadedAtOnce = element.modules.map((m) => m.path);
    expect(loadedAtOnce).toContain('src/chat/element.ts');
    for (const lazy of ['src/chat/conversations/list.ts', 'src/chat/conversations/list-styles.ts', 'src/chat/files/panel.ts', 'src/chat/files/styles.ts', 'src/chat/questions/render.ts']) {
      expect(existsSync(new URL(`../../${lazy}`, import.meta.url)), lazy).toBe(true);
      expect(loadedAtOnce).not.toContain(lazy);
    }
  });

  it("keeps the run sources a page does not use out of the element's first load: the src client, its decoder and framing", async () => {
    const element = await measureSize(SIZE_ENTRIES.find((e) => e.name.startsWith('pagent-chat.js'))!, 'src');
    const loadedAtOnce = element.modules.map((m) => m.path);
    expect(loadedAtOnce).toContain('src/chat/element.ts');
    for (const lazy of ['src/chat/runs/src-client.ts', 'src/wire/client.ts', 'src/wire/decoder.ts', 'src/wire/framing.ts']) {
      expect(existsSync(new URL(`../../${lazy}`, import.meta.url)), lazy).toBe(true);
      expect(loadedAtOnce).not.toContain(lazy);
    }
  });

  it('loads what an agent needs only for saving, tool calls, failed responses, redirects, JSON answers and the Responses and Messages APIs on use', async () => {
    const agent = await measureSize(SIZE_ENTRIES.find((e) => e.name === 'Agent + LLM + tool + Session')!, 'src');
    const loadedAtOnce = agent.modules.map((m) => m.path);
    expect(loadedAtOnce).toContain('src/agent/agent.ts');
    const apiModules = ['llm/responses-api.ts', 'llm/responses-request.ts', 'llm/responses-reader.ts', 'llm/anthropic-api.ts', 'llm/anthropic-request.ts', 'llm/anthropic-reader.ts', 'data-url.ts'];
    for (const name of ['sessions/persistence.ts', 'tools/tool-call.ts', 'llm/llm-http-failure.ts', 'llm/llm-redirect.ts', 'llm/llm-json-body.ts', ...apiModules]) {
      // (a renamed module would pass the check below without this one)
      expect(existsSync(new URL(`../../src/agent/${name}`, import.meta.url)), name).toBe(true);
      expect(loadedAtOnce.filter((path) => path.endsWith(`/${name}`))).toEqual([]);
    }
  });
});
