/**
 * Syntax highlighting of fenced code: lazily loaded once, each finished line tokenized once and replaced by
 * its token spans once (settled lines are never touched again), colours meeting WCAG AA.
 */
import { describe, expect, it, vi } from 'vitest';
import { page } from 'vitest/browser';
import type { PagentChat } from '../../../src/chat/element.js';
import { createMarkdownStream, renderMarkdown } from '../../../src/chat/markdown.js';
/** How many times the page fetched the highlighter chunk (module scripts are fetched once per URL). */
const engineLoads = (): number =>
  performance.getEntriesByType('resource').filter((e) => /\/markdown\/highlighter\.ts(\?|$)/.test(e.name)).length;

type Engine = typeof import('../../../src/chat/markdown/highlighter.js');
/** The highlighter module as the element loaded it (importing it here before would defeat the laziness checks). */
const engine = (): Promise<Engine> => import('../../../src/chat/markdown/highlighter.js');
import { $, $$, chatFixture, pushAll, textRun, until } from './helpers.js';

const NAMES = ['keyword', 'string', 'comment', 'number', 'def', 'type', 'property', 'meta', 'heading', 'inserted', 'deleted'];

/** The highlighted pieces of text under `root`, in document order: [highlight name, text]. */
function tokensIn(root: ParentNode): Array<[string, string]> {
  return [...root.querySelectorAll<HTMLElement>('span[class^="pagent-hl-"]')].map((s) => [s.className.slice('pagent-hl-'.length), s.textContent!]);
}

const settle = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
};

describe('syntax highlighting', () => {
  it('loads nothing for text and code without a language word; an unknown language stays plain', async () => {
    const el = document.createElement('div');
    document.body.append(el);
    renderMarkdown(el, 'text `const`\n\n    const y = 2;\n\n```\nlet z;\n```\n');
    await settle();
    expect(engineLoads()).toBe(0);
    renderMarkdown(el, '```foo\nconst x = 1;\n```\n');
    await until(() => engineLoads() === 1, 'the highlighter chunk');
    await settle();
    const { highlightStats, highlightLanguage } = await engine();
    expect(highlightStats.linesTokenized).toBe(0);
    expect(tokensIn(el)).toEqual([]);
    expect(highlightLanguage('foo')).toBeUndefined();
    expect(highlightLanguage('TS')).toBe('typescript');
    el.remove();
  });

  it('loads the highlighter once across many blocks and many elements, and colours each language', async () => {
    const elements: PagentChat[] = [];
    for (let i = 0; i < 3; i++) {
      const el = await chatFixture();
      elements.push(el);
      await pushAll(el, textRun('code', ['```ts\nconst a: number = 1; // one\n```\n\n```python\ndef f(x):\n    return "x"\n```\n\n```json\n{"k": true}\n```\n']));
    }
    for (const el of elements) {
      el.scrollIntoView();
      await until(() => $$(el, 'code').every((c) => tokensIn(c).length > 0), 'every block highlighted');
    }
    expect(engineLoads()).toBe(1);
    const [ts, py, json] = $$(elements[2]!, 'code');
    expect(tokensIn(ts!)).toEqual([
      ['keyword', 'const'], ['def', 'a'], ['type', 'number'], ['number', '1'], ['comment', '// one'],
    ]);
    expect(tokensIn(py!)).toEqual([['keyword', 'def'], ['def', 'f'], ['keyword', 'return'], ['string', '"x"']]);
    expect(tokensIn(json!)).toEqual([['property', '"k"'], ['number', 'true']]);
  });

  it('knows the languages models write most', async () => {
    const samples: Record<string, string> = {
      js: 'function f() { return 1 }', bash: 'echo "hi" # say', html: '<div class="a">x</div>', xml: '<a b="c"/>',
      css: 'a { color: red }', sql: 'SELECT id FROM t', go: 'func main() {}', rust: 'fn main() { let x = 1; }',
      java: 'public class A {}', c: 'int main(void) { return 0; }', 'c++': 'std::string s = "a";', cs: 'var x = "a";',
      yaml: 'key: "value" # c', markdown: '# Title', diff: '+added',
    };
    const seen: Record<string, Array<[string, string]>> = {};
    for (const [lang, code] of Object.entries(samples)) {
      const el = document.createElement('div');
      document.body.prepend(el);
      renderMarkdown(el, `\`\`\`${lang}\n${code}\n\`\`\`\n`);
      await until(() => tokensIn(el).length > 0, `${lang} highlighted`);
      seen[lang] = tokensIn(el);
      el.remove();
    }
    expect(seen['diff']).toEqual([['inserted', '+added']]);
    expect(seen['markdown']).toEqual([['heading', '# Title']]);
    expect(seen['sql']!.slice(0, 2)).toEqual([['keyword', 'SELECT'], ['keyword', 'FROM']]);
  });

  it('tokenizes each finished line once while streaming, makes its spans once, keeps the text, and the open line plain', async () => {
    const warm = document.createElement('div');
    renderMarkdown(warm, '```js\n1\n```');
    const { highlightStats } = await engine();
    await until(() => highlightStats.linesTokenized > 0, 'warm-up');

    const code = Array.from({ length: 20 }, (_, i) => `let v${i} = "s${i}"; // c${i}`).join('\n');
    const text = `Intro\n\n\`\`\`js\n${code}\n\`\`\`\n\nAfter the block, more text.`;
    const el = document.createElement('div');
    document.body.prepend(el);
    const md = createMarkdownStream(el);
    const observer = new MutationObserver(() => {});
    observer.observe(el, { subtree: true, childList: true, characterData: true, attributes: true });
    const before = highlightStats.linesTokenized;
    const spansBefore = highlightStats.spansCreated;
    let finished = 0;
    let seenInCode = 0;
    for (const ch of text) {
      md.append(ch);
      await new Promise((r) => setTimeout(r, 0));
      const codeEl = el.querySelector('code');
      const done = codeEl?.textContent ?? '';
      finished = (done.match(/\n/g) ?? []).length;
      // every finished code line was tokenized exactly once, the open one not yet
      expect(highlightStats.linesTokenized - before).toBe(finished);
      // every finished line has its 4 spans, the open line none
      expect(codeEl ? tokensIn(codeEl).length : 0).toBe(Math.min(finished, 20) * 4);
      seenInCode = done.length;
    }
    md.end();
    await settle();
    expect(highlightStats.linesTokenized - before).toBe(20);
    expect(seenInCode).toBe(code.length + 1);
    const records = observer.takeRecords();
    observer.disconnect();
    // spans are made once: no element inside the code was ever removed, and 80 were made for 20 lines
    const inCode = records.filter((r) => r.target.nodeName === 'CODE');
    expect(inCode.some((r) => [...r.removedNodes].some((n) => n.nodeType === 1))).toBe(false);
    expect(highlightStats.spansCreated - spansBefore).toBe(80);
    const plain = document.createElement('div');
    renderMarkdown(plain, text.replace('```js', '```nohighlight'));
    expect(el.querySelector('code')!.textContent).toBe(plain.querySelector('code')!.textContent);
    const tokens = tokensIn(el.querySelector('code')!);
    expect(tokens.slice(0, 4)).toEqual([['keyword', 'let'], ['def', 'v0'], ['string', '"s0"'], ['comment', '// c0']]);
    expect(tokens).toHaveLength(80);
    // a settled block is never tokenized again
    const created = highlightStats.spansCreated;
    el.remove();
    expect(highlightStats.spansCreated).toBe(created);
  });

  it('leaves settled chunks of a long block untouched while it streams on', async () => {
    const el = await chatFixture((c) => (c.style.height = '300px'));
    const lines = Array.from({ length: 400 }, (_, i) => `let v${i} = ${i};`);
    // RunBegin, TurnBegin and the text: the run stays open
    await pushAll(el, textRun('long', [`\`\`\`js\n${lines.join('\n')}\n`]).slice(0, 3));
    const code = $(el, 'code')!;
    await until(() => tokensIn(code).length === 1200, 'every line highlighted');
    const chunks = [...code.children];
    expect(chunks).toHaveLength(4); // 100-line chunks
    const observer = new MutationObserver(() => {});
    for (const chunk of chunks.slice(0, 3)) observer.observe(chunk, { subtree: true, childList: true, characterData: true });
    for (let i = 400; i < 420; i++) {
      el.push({ method: 'TextDelta', params: { text: `let v${i} = ${i};\n` } });
      await el.updateComplete;
    }
    await until(() => tokensIn(code).length === 1260, 'the new lines highlighted');
    expect(observer.takeRecords()).toEqual([]);
    observer.disconnect();
    expect(tokensIn(chunks[0]!).slice(0, 3)).toEqual([['keyword', 'let'], ['def', 'v0'], ['number', '0']]);
  });

  it('copies the source of highlighted code', async () => {
    const el = await chatFixture();
    await pushAll(el, textRun('copy', ['```py\nprint("hi")\n```']));
    await until(() => tokensIn($(el, 'code')!).length > 0, 'highlighted');
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined);
    $(el, '[part="code-block"] [part="copy-button"]')!.click();
    expect(writeText).toHaveBeenCalledWith('print("hi")\n');
    writeText.mockRestore();
  });

  it('colours every token kind with at least 4.5:1 contrast on the code block, light and dark', async () => {
    const text = '```ts\nconst a = 1;\n```';
    for (const theme of ['light', 'dark'] as const) {
      const el = await chatFixture((c) => (c.theme = theme));
      await pushAll(el, textRun('c', [text]));
      el.scrollIntoView();
      await until(() => tokensIn($(el, 'code')!).length > 0, 'highlighted');
      const pre = $(el, '[part="code-block"]')!;
      const background = parseColour(getComputedStyle(pre).backgroundColor);
      for (const name of NAMES) {
        const token = getComputedStyle(el).getPropertyValue(`--_hl-${name}`).trim();
        expect(token, name).not.toBe('');
        const ratio = contrast(parseColour(token), background);
        expect(ratio, `${theme} ${name} ${token}`).toBeGreaterThanOrEqual(4.5);
      }
    }
  });

  it('screenshots: code in light and dark', async () => {
    const code = [
      '```ts',
      '// Greets a user by name',
      'export function greet(name: string, times = 2): string {',
      '  const parts: string[] = [];',
      '  for (let i = 0; i < times; i++) parts.push(`hello ${name}`);',
      '  return parts.join(", ");',
      '}',
      '```',
      '',
      '```diff',
      '@@ -1,2 +1,2 @@',
      '-const x = 1;',
      '+const x = 2;',
      '```',
    ].join('\n');
    for (const theme of ['light', 'dark'] as const) {
      const el = await chatFixture((c) => {
        c.theme = theme;
        c.style.width = '640px';
      });
      await pushAll(el, textRun('Show me code', [code]));
      el.scrollIntoView();
      await until(() => $$(el, 'code').every((c) => tokensIn(c).length > 0), 'highlighted');
      await page.viewport(700, 600);
      await new Promise((r) => requestAnimationFrame(() => r(undefined)));
      await page.screenshot({ element: el, path: `../../../test-results/screens/code-${theme}.png` });
    }
  });
});

/** An sRGB colour as [r, g, b] from `#rrggbb` or `rgb(r, g, b)`. */
function parseColour(value: string): [number, number, number] {
  const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(value);
  if (hex) return [Number.parseInt(hex[1]!, 16), Number.parseInt(hex[2]!, 16), Number.parseInt(hex[3]!, 16)];
  const rgb = /^rgba?\((\d+), (\d+), (\d+)/.exec(value);
  if (!rgb) throw new Error(`not a colour: ${value}`);
  return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])];
}

/** WCAG 2.1 contrast ratio. */
function contrast(a: [number, number, number], b: [number, number, number]): number {
  const lum = ([r, g, bl]: [number, number, number]): number => {
    const lin = (c: number): number => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(bl);
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}
