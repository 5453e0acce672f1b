/** The code blocks of the README and of the docs pages, for tests that run or compile them as written. */
import { readFileSync } from 'node:fs';

export const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The text of a Markdown file of the repository, e.g. `docs/guides/integrate.md`. */
export function markdownFile(path: string): string {
  return readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
}

export interface CodeBlock {
  /** The fence's language (`ts`, `html`, …). */
  lang: string;
  code: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The `##` / `###` heading above the block. */
  section: string;
}

/** Every fenced code block of the README, in order. */
export function codeBlocks(): CodeBlock[] {
  return codeBlocksOf(README);
}

/** Every fenced code block of a Markdown text (a page of docs/, say), in order. */
export function codeBlocksOf(markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const lines = markdown.split('\n');
  let section = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const heading = /^#{2,3} (.*)/.exec(line);
    if (heading) section = heading[1]!;
    const fence = /^```(\S*)\s*$/.exec(line);
    if (!fence) continue;
    const start = i;
    const body: string[] = [];
    while (++i < lines.length && !/^```\s*$/.test(lines[i]!)) body.push(lines[i]!);
    blocks.push({ lang: fence[1]!, code: body.join('\n') + '\n', line: start + 1, section });
  }
  return blocks;
}

/** The first block of `lang` under the heading `section`, in the README or in the Markdown file `path`. */
export function codeBlock(section: string, lang: string, path = 'README.md'): CodeBlock {
  const block = codeBlocksOf(markdownFile(path)).find((b) => b.section === section && b.lang === lang);
  if (!block) throw new Error(`${path} has no ${lang} block under "${section}"`);
  return block;
}
