import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
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

describe('the framework typings', () => {
  it('cover every public property custom-elements.json lists', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'custom-elements.json'), 'utf8')) as {
      modules: Array<{ declarations?: Array<{ members?: Array<{ kind: string; name: string; readonly?: boolean }> }> }>;
    };
    const fields = manifest.modules
      .flatMap((m) => m.declarations ?? [])
      .flatMap((d) => d.members ?? [])
      .filter((m) => m.kind === 'field' && !m.readonly)
      .map((m) => m.name)
      .sort();
    expect(fields.length).toBeGreaterThan(5);

    // the keys of PagentChatProperties, read by the compiler from the shipped declaration
    const props = join(consumer, 'node_modules/pagent-web/dist/chat/frameworks/props.d.ts');
    const program = ts.createProgram([props], { strict: true, noEmit: true, types: [] });
    const checker = program.getTypeChecker();
    const file = program.getSourceFile(props)!;
    const alias = file.statements.find(
      (s): s is ts.TypeAliasDeclaration => ts.isTypeAliasDeclaration(s) && s.name.text === 'PagentChatProperties',
    )!;
    const keys = checker.getTypeAtLocation(alias.name).getProperties().map((p) => p.name).sort();
    expect(keys).toEqual(fields);
  }, 60_000);
});
