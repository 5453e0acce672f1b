import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { installPacked, ROOT } from '../helpers/packed.js';
import { codeBlocks, README } from '../helpers/readme.js';
import { typecheck } from '../helpers/typecheck.js';

// Every ```ts block of the README compiles as written, each as its own module, against the packed
// package under `strict`. test/consumers/readme/src/app.d.ts declares only the app's own placeholders
// (apiKey, fetchWeather, …); the JSX, Vue and Svelte recipes are checked by frameworks.test.ts.
const consumer = join(ROOT, 'test/consumers/readme');

beforeAll(async () => {
  await installPacked(consumer);
}, 60_000);

describe('README', () => {
  const blocks = codeBlocks().filter((b) => b.lang === 'ts');

  it('has TypeScript samples in every section that shows code', () => {
    expect(blocks.map((b) => b.section)).toEqual(
      expect.arrayContaining(['Use 2 — `WireClient`: a server\'s stream in TypeScript', 'Use 3 — `Agent`: a BYO-key agent in the browser', 'Use 4 — `RemoteAgent`: an AI SDK route or an AG-UI agent']),
    );
  });

  // A newcomer reads it in five minutes (at 230 words a minute): the rest lives in docs/.
  it('opens with the demo and test commands and stays short', () => {
    const first = codeBlocks()[0]!;
    expect(first.line).toBe(3);
    expect(first.code).toMatch(/^npm ci && npm run demo\s.*\nnpm test\s/);
    expect(README.split(/\s+/).filter(Boolean).length).toBeLessThanOrEqual(5 * 230);
  });

  it('compiles every TypeScript sample as written', () => {
    const files = Object.fromEntries(blocks.map((b) => [join(consumer, 'src', `readme-line-${b.line}.ts`), b.code]));
    const { errors } = typecheck(join(consumer, 'tsconfig.json'), files);
    expect(errors).toBe('');
  }, 120_000);
});
