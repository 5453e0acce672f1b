/**
 * Skills (pagentv4's `SkillRegistry` and `use_skill`): instruction packs written as `SKILL.md` files
 * (front matter `name`, `description`; the body is the instructions). The model sees each skill's name
 * and description and loads the instructions of one on demand with the `use_skill` tool.
 */
import type { Workspace } from '../../store/workspace.js';
import { tool, type Tool } from './tools.js';

/** The most characters a skill's name may have (the Agent Skills format's limit). */
export const SKILL_NAME_MAX = 64;
/** The most characters a skill's description may have (the Agent Skills format's limit). */
export const SKILL_DESCRIPTION_MAX = 1024;

/** One skill. */
export interface Skill {
  /**
   * From the front matter, else the name of the folder holding `SKILL.md`: 1 to {@link SKILL_NAME_MAX}
   * lower-case letters (of any script), digits and single hyphens, not first or last (the Agent Skills
   * format's rule).
   */
  name: string;
  /** One line (line breaks of a block scalar become spaces), at most {@link SKILL_DESCRIPTION_MAX} characters. */
  description: string;
  /** The body of `SKILL.md`, trimmed. */
  instructions: string;
  /** Where its `SKILL.md` is (a workspace path, or the key it was given under). */
  path: string;
  /** Other files in the skill's folder (workspace paths), for the model to read with `read_file`. */
  resources: string[];
}

/** A `SKILL.md` that was not loaded, and why. */
export interface SkillProblem {
  path: string;
  message: string;
}

/** The skills of a workspace or of given files. */
export interface SkillRegistry {
  /** Every valid skill, by name (read again at each call, so skills written meanwhile appear). */
  skills(): Promise<Skill[]>;
  /** One skill by name. */
  get(name: string): Promise<Skill | undefined>;
  /**
   * `SKILL.md` files that were skipped (no name or description, a name or description that breaks the
   * rules of {@link Skill}, a duplicate name), from the last read, each with the reason.
   */
  problems(): readonly SkillProblem[];
  /**
   * The skills' names and descriptions as a block for the system prompt, telling the model to call
   * `use_skill` (pagentv4 puts the same list in its system prompt). Empty text when there are none.
   */
  summary(): Promise<string>;
}

/** `SKILL.md` texts by path (`"translate/SKILL.md": "---\nname: …"`), or a list of `{path, text}`. */
export type SkillFiles = Readonly<Record<string, string>> | Iterable<{ path: string; text: string }>;

/**
 * Parses a `SKILL.md`: a front matter block between `---` lines (`key: value`, quoted values, `|` and
 * `>` block scalars; a byte order mark is ignored) and the body.
 */
export function parseSkillFile(text: string): { frontMatter: Record<string, string>; body: string } {
  const source = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const match = /^---\n([\s\S]*?)\n---[ \t]*(?:\n|$)/.exec(source);
  if (!match) return { frontMatter: {}, body: source };
  const frontMatter: Record<string, string> = {};
  const lines = match[1]!.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const kv = /^([A-Za-z_][\w-]*)\s*:\s*(.*)$/.exec(line);
    if (!kv) continue;
    const key = kv[1]!;
    let value = kv[2]!.trim();
    if (value === '|' || value === '>' || value === '|-' || value === '>-') {
      const block: string[] = [];
      while (i + 1 < lines.length && (/^\s+\S/.test(lines[i + 1]!) || lines[i + 1]!.trim() === '')) block.push(lines[++i]!.trim());
      value = value.startsWith('|') ? block.join('\n').trim() : block.join(' ').replace(/\s+/g, ' ').trim();
    } else if (/^(["']).*\1$/.test(value)) {
      value = value.slice(1, -1);
    } else {
      value = value.replace(/\s+#.*$/, '');
    }
    if (key !== '__proto__') frontMatter[key] = value;
  }
  return { frontMatter, body: source.slice(match[0].length) };
}

// Runs of lower-case letters, digits and marks joined by single hyphens. Letters without case count as
// lower-case (CJK, Arabic …); marks belong to the letter before them. (A literal, not new RegExp(): a
// call at the top of a module stays in every bundle that imports the package.)
const SKILL_NAME = /^[\p{Ll}\p{Lm}\p{Lo}\p{M}\p{Nd}]+(?:-[\p{Ll}\p{Lm}\p{Lo}\p{M}\p{Nd}]+)*$/u;
const UNPRINTABLE = /[\p{Cc}\p{Cs}]/gu;

/** `U+0085` for a character (its first UTF-16 unit: control characters and surrogates are single units). */
const codeOf = (c: string): string => `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;

/** `text` quoted for a message: cut to {@link SKILL_NAME_MAX} units, control characters as `\uXXXX`. */
function quoted(text: string): string {
  const cut = text.length > SKILL_NAME_MAX ? `${text.slice(0, SKILL_NAME_MAX)}…` : text;
  return `"${cut.replace(UNPRINTABLE, (c) => `\\u${codeOf(c).slice(2)}`)}"`;
}

/** Why a skill's name or (already one-line) description breaks the rules of {@link Skill}, if it does. */
function skillProblem(name: string, description: string, fromFolder: boolean): string | undefined {
  const what = `skill name ${quoted(name)}${fromFolder ? " (its folder's name)" : ''}`;
  const length = [...name].length;
  if (length > SKILL_NAME_MAX) return `${what} is ${length} characters long; at most ${SKILL_NAME_MAX}`;
  if (!SKILL_NAME.test(name)) return `${what} is not valid: a name is lower-case letters, digits and single hyphens (not first or last), on one line`;
  if (description === '') return `skill '${name}' has no description`;
  const bad = description.match(UNPRINTABLE)?.[0];
  if (bad !== undefined) return `skill '${name}': the description contains ${codeOf(bad)}, a control character or a lone surrogate`;
  const chars = [...description].length;
  if (chars > SKILL_DESCRIPTION_MAX) return `skill '${name}': the description is ${chars} characters long; at most ${SKILL_DESCRIPTION_MAX}`;
  return undefined;
}

const isSkillFile = (path: string): boolean => path === 'SKILL.md' || path.endsWith('/SKILL.md');
const folderOf = (path: string): string => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');

function isWorkspace(source: Workspace | SkillFiles): source is Workspace {
  return typeof (source as Workspace).files === 'function' && typeof (source as Workspace).read === 'function';
}

/**
 * A registry of the `SKILL.md` packs in a workspace (every `SKILL.md`, at any depth; the other files of
 * its folder are its resources) or in the given texts.
 *
 * @example
 * const skills = createSkillRegistry(workspace);
 * const agent = new Agent({ llm, session: new Session(`You are helpful.\n\n${await skills.summary()}`),
 *   tools: [...workspaceTools(workspace), useSkillTool(skills)] });
 */
export function createSkillRegistry(source: Workspace | SkillFiles): SkillRegistry {
  let problems: SkillProblem[] = [];

  async function texts(): Promise<Array<{ path: string; text: string; resources: string[] }>> {
    if (!isWorkspace(source)) {
      const entries = Symbol.iterator in source
        ? [...(source as Iterable<{ path: string; text: string }>)]
        : Object.entries(source as Record<string, string>).map(([path, text]) => ({ path, text }));
      return entries.map((e) => ({ ...e, resources: [] }));
    }
    const files = await source.files();
    const out = [];
    for (const file of files) {
      if (!isSkillFile(file.path)) continue;
      const folder = folderOf(file.path);
      const resources = files
        .filter((f) => f.path !== file.path && folder !== '' && f.path.startsWith(`${folder}/`))
        .map((f) => f.path);
      out.push({ path: file.path, text: await source.read(file.path), resources });
    }
    return out;
  }

  async function skills(): Promise<Skill[]> {
    const found = new Map<string, Skill>();
    const skipped: SkillProblem[] = [];
    for (const { path, text, resources } of await texts()) {
      const { frontMatter, body } = parseSkillFile(text);
      const folder = folderOf(path);
      const given = (frontMatter['name'] ?? '').trim();
      const name = given || folder.split('/').pop() || '';
      // one line in the system prompt's list, whatever a block scalar held
      const description = (frontMatter['description'] ?? '').replace(/\s+/g, ' ').trim();
      const problem = name === '' ? 'no name (front matter "name", or a folder)' : skillProblem(name, description, given === '');
      if (problem !== undefined) skipped.push({ path, message: problem });
      else if (found.has(name)) skipped.push({ path, message: `skill '${name}' is defined twice; the first (${found.get(name)!.path}) is kept` });
      else found.set(name, { name, description, instructions: body.trim(), path, resources });
    }
    problems = skipped;
    return [...found.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  return {
    skills,
    async get(name) {
      return (await skills()).find((s) => s.name === name);
    },
    problems: () => problems,
    async summary() {
      const list = await skills();
      if (list.length === 0) return '';
      const lines = list.map((s) => `- ${s.name}: ${s.description}`);
      return `Skills (call use_skill with a skill's name to load its instructions before doing such a task):\n${lines.join('\n')}`;
    },
  };
}

/**
 * The `use_skill {name}` tool: returns the skill as JSON `{ok, name, description, instructions,
 * resources}`; an unknown name fails with the available names.
 */
export function useSkillTool(registry: SkillRegistry): Tool<{ name: string }> {
  return tool<{ name: string }>({
    name: 'use_skill',
    description: "Load a skill's full instructions by name. Call it when the user's request matches one of the skills listed in the system prompt, then follow the instructions.",
    parameters: {
      type: 'object',
      properties: { name: { type: 'string', description: 'The skill name, as listed.' } },
      required: ['name'],
      additionalProperties: false,
    },
    async execute({ name }) {
      const list = await registry.skills();
      const skill = list.find((s) => s.name === name);
      if (!skill) throw new Error(`unknown skill '${name}'; available: [${list.map((s) => `'${s.name}'`).join(', ')}]`);
      return JSON.stringify({ ok: true, name: skill.name, description: skill.description, instructions: skill.instructions, resources: skill.resources });
    },
  });
}
