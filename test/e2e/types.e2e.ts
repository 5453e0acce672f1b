import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { installPacked, ROOT } from '../helpers/packed.js';
import { typecheck } from '../helpers/typecheck.js';

// test/consumers/ts is a strict app (exactOptionalPropertyTypes, no skipLibCheck) that imports the packed
// package; its files hold the type assertions (expectTypeOf, @ts-expect-error).
const consumer = join(ROOT, 'test/consumers/ts');

beforeAll(async () => {
  await installPacked(consumer);
}, 60_000);

describe('the shipped types, in a strict consumer', () => {
  it.each(['tsconfig.json', 'tsconfig.node16.json'])(
    'type DOM events, the tag, tool() arguments and the bundle (%s)',
    (config) => {
      const { errors, files } = typecheck(join(consumer, config));
      expect(errors).toBe('');
      // resolved from the packed package's .d.ts files, not from the sources
      expect(files).toContain(join(consumer, 'node_modules/pagent-web/dist/chat/events.d.ts'));
      expect(files.some((f) => f.startsWith(join(ROOT, 'src')))).toBe(false);
    },
    60_000,
  );
});
