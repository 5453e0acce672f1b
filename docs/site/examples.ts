/**
 * Live examples: a fenced block whose language is `example` and whose text names a module of
 * docs/examples/ becomes that module's source (exactly the file that runs) and its result, the module's
 * default export run against a fresh element. The state (`data-state`: running, done, failed) is on the
 * `figure`; a failure is also logged, so the site's browser test catches it.
 */
import { renderMarkdown } from '../../src/chat/markdown.js';

type Example = { default: (target: HTMLElement) => void | Promise<void> };
const modules = import.meta.glob<Example>('../examples/*.ts');
const sources = import.meta.glob<string>('../examples/*.ts', { query: '?raw', import: 'default' });

async function mount(code: HTMLElement): Promise<void> {
  const name = (code.textContent ?? '').trim();
  const key = `../examples/${name}.ts`;
  const block = code.closest<HTMLElement>('[part~="code-block"]') ?? code;
  const figure = document.createElement('figure');
  figure.className = 'example';
  figure.dataset['example'] = name;
  figure.dataset['state'] = 'running';
  const caption = document.createElement('figcaption');
  caption.textContent = `Live example: docs/examples/${name}.ts`;
  const source = document.createElement('div');
  const result = document.createElement('div');
  result.className = 'result';
  figure.append(caption, source, result);
  block.replaceWith(figure);
  try {
    const load = modules[key];
    const text = sources[key];
    if (!load || !text) throw new Error(`docs/examples has no ${name}.ts`);
    renderMarkdown(source, '```ts\n' + (await text()) + '```\n', { math: false });
    await (await load()).default(result);
    figure.dataset['state'] = 'done';
  } catch (err) {
    figure.dataset['state'] = 'failed';
    const p = document.createElement('p');
    p.className = 'failed';
    p.textContent = `The example failed: ${String(err)}`;
    result.append(p);
    console.error(`example ${name} failed:`, err);
  }
}

/** Mounts every example of `article` and resolves when all of them have shown their result (or failed). */
export async function mountExamples(article: HTMLElement): Promise<void> {
  await Promise.all([...article.querySelectorAll<HTMLElement>('code.language-example')].map(mount));
}
