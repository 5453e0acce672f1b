import { describe, expect, it } from 'vitest';
import { createSkillRegistry, parseSkillFile, useSkillTool } from '../../../src/agent/skills.js';

const ctx = { signal: new AbortController().signal, tool_call_id: 't' };

describe('SKILL.md parsing', () => {
  it('reads front matter (plain, quoted, block scalars, comments) and the body', () => {
    const { frontMatter, body } = parseSkillFile('\uFEFF---\r\nname: greet\r\ndescription: "Say hi: politely"\r\nnotes: >\r\n  one\r\n  two\r\nsteps: |\r\n  a\r\n  b\r\nlevel: 3 # comment\r\n---\r\nBody line 1\r\nBody 2\r\n');
    expect(frontMatter).toEqual({ name: 'greet', description: 'Say hi: politely', notes: 'one two', steps: 'a\nb', level: '3' });
    expect(body).toBe('Body line 1\nBody 2\n');
  });

  it('a file without front matter is all body', () => {
    expect(parseSkillFile('just text')).toEqual({ frontMatter: {}, body: 'just text' });
  });
});

describe('skill registry from files', () => {
  const files = {
    'translate/SKILL.md': '---\ndescription: Translate text between languages\n---\nAlways keep the tone.\n',
    'summarise/SKILL.md': '---\nname: summarise\ndescription: 要約する\n---\n3 bullet points.',
    'broken/SKILL.md': '---\nname: broken\n---\nno description',
    'dupe/SKILL.md': '---\nname: summarise\ndescription: again\n---\nx',
  };

  it('lists valid skills (name from the folder when missing) and reports the skipped ones', async () => {
    const registry = createSkillRegistry(files);
    expect((await registry.skills()).map((s) => [s.name, s.description, s.instructions])).toEqual([
      ['summarise', '要約する', '3 bullet points.'],
      ['translate', 'Translate text between languages', 'Always keep the tone.'],
    ]);
    expect(registry.problems().map((p) => p.path)).toEqual(['broken/SKILL.md', 'dupe/SKILL.md']);
    expect(await registry.summary()).toBe(
      'Skills (call use_skill with a skill\'s name to load its instructions before doing such a task):\n- summarise: 要約する\n- translate: Translate text between languages',
    );
    expect(await createSkillRegistry({}).summary()).toBe('');
  });

  it('use_skill returns the instructions, and an unknown name lists the available ones', async () => {
    const use = useSkillTool(createSkillRegistry(files));
    expect(JSON.parse((await use.execute({ name: 'translate' }, ctx)) as string)).toEqual({
      ok: true, name: 'translate', description: 'Translate text between languages', instructions: 'Always keep the tone.', resources: [],
    });
    await expect(Promise.resolve(use.execute({ name: 'ghost' }, ctx))).rejects.toThrow("unknown skill 'ghost'; available: ['summarise', 'translate']");
  });
});
