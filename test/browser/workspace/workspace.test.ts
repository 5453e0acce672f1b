// Workspace and its file tools against the real origin private file system in Chromium.
import { afterEach, describe, expect, it } from 'vitest';
import { Agent } from '../../../src/agent/agent.js';
import type { Tool } from '../../../src/agent/tools/tools.js';
import { workspaceTools } from '../../../src/agent/tools/workspace-tools.js';
import { createWorkspace, WorkspaceError, type Workspace } from '../../../src/store/workspace.js';
import type { AgentModel, AgentModelEvent } from '../../../src/agent/agent.js';

const opened: Workspace[] = [];
async function fresh(): Promise<Workspace> {
  const ws = await createWorkspace({ name: `t-${crypto.randomUUID()}` });
  opened.push(ws);
  return ws;
}
afterEach(async () => {
  for (const ws of opened.splice(0)) await ws.clear();
});

const ctx = { signal: new AbortController().signal, tool_call_id: 't' };
function byName(tools: Tool<never>[], name: string): (args: Record<string, unknown>) => Promise<string> {
  const t = tools.find((x) => x.name === name)! as unknown as Tool<Record<string, unknown>>;
  return async (args) => (await t.execute(args, ctx)) as string;
}

describe('Workspace on OPFS', () => {
  it('writes (creating parents), reads, lists, downloads and deletes files', async () => {
    const ws = await fresh();
    const changes: string[] = [];
    ws.subscribe((c) => changes.push(`${c.type} ${c.path}`));
    await ws.write('notes/ideas/今日.md', '# 今日\n🙂');
    await ws.write('a.txt', 'A');
    expect(await ws.read('notes/ideas/今日.md')).toBe('# 今日\n🙂');
    expect((await ws.list()).map((e) => `${e.kind}:${e.name}`)).toEqual(['directory:notes', 'file:a.txt']);
    expect((await ws.files()).map((e) => [e.path, e.size])).toEqual([['a.txt', 1], ['notes/ideas/今日.md', new TextEncoder().encode('# 今日\n🙂').length]]);
    const file = await ws.file('a.txt');
    expect(file.name).toBe('a.txt');
    expect(await file.text()).toBe('A');
    await ws.delete('notes');
    await ws.delete('missing.txt');
    expect((await ws.files()).map((e) => e.path)).toEqual(['a.txt']);
    expect(changes).toEqual(['write notes/ideas/今日.md', 'write a.txt', 'delete notes']);
  });

  it('two workspaces of different names keep separate files; the same name shares them', async () => {
    const a = await fresh();
    const b = await fresh();
    await a.write('x.txt', 'from a');
    await expect(b.read('x.txt')).rejects.toMatchObject({ name: 'WorkspaceError', reason: 'not-found' });
    const again = await createWorkspace({ name: a.name });
    expect(await again.read('x.txt')).toBe('from a');
  });

  it('refuses paths that leave the workspace: "..", absolute, and look-alikes after Unicode normalisation', async () => {
    const ws = await fresh();
    const refused = ['../x', 'a/../../x', '/etc/passwd', '\\x', 'C:\\x', '~/x', '．．/x', 'a/‥/x', 'a／b', 'a\\b', 'a\u0000b'];
    for (const path of refused) {
      const err = await ws.write(path, 'x').catch((e: unknown) => e);
      expect(err, path).toBeInstanceOf(WorkspaceError);
      expect((err as WorkspaceError).reason, path).toBe('invalid-path');
      expect((err as WorkspaceError).message, path).toMatch(/^Workspace path ".*" refused: /);
    }
    expect(await ws.files()).toEqual([]);
    // decomposed and composed forms are the same file (stored NFC)
    await ws.write('cafe\u0301.txt', 'x');
    expect(await ws.read('caf\u00e9.txt')).toBe('x');
  });

  // issue 22, item 11: C1 controls were accepted, and two lone surrogates named one file.
  it('refuses C0, DEL and C1 control characters and lone surrogates, naming the character', async () => {
    const ws = await fresh();
    const refused: Array<[string, string]> = [
      ['a\u0085b.txt', 'the control character U+0085'],
      ['a\u0080b.txt', 'the control character U+0080'],
      ['dir\u009f/x.txt', 'the control character U+009F'],
      ['x\u007f.txt', 'the control character U+007F'],
      ['line\nbreak.txt', 'the control character U+000A'],
      ['s\ud800.txt', 'a lone surrogate (U+D800)'],
      ['s\udc00.txt', 'a lone surrogate (U+DC00)'],
      ['half\ud83d/x.txt', 'a lone surrogate (U+D83D)'],
    ];
    for (const [path, what] of refused) {
      for (const attempt of [() => ws.write(path, 'x'), () => ws.read(path), () => ws.delete(path)]) {
        const err = await attempt().catch((e: unknown) => e);
        expect(err, JSON.stringify(path)).toBeInstanceOf(WorkspaceError);
        expect(err, JSON.stringify(path)).toMatchObject({ reason: 'invalid-path', path });
        expect((err as Error).message).toContain(`refused: it contains ${what}`);
        // the message shows the character escaped, never raw
        expect((err as Error).message).not.toMatch(/[\p{Cc}\p{Cs}]/u);
      }
    }
    expect(await ws.files()).toEqual([]);
    // a well-formed surrogate pair (an emoji) is an ordinary character
    await ws.write('🙂.txt', 'smile');
    expect(await ws.read('🙂.txt')).toBe('smile');
  });

  it('two spellings that differ only by a lone surrogate never reach the same file', async () => {
    const ws = await fresh();
    await ws.write('s\ufffd.txt', 'replacement character');
    await expect(ws.read('s\ud800.txt')).rejects.toMatchObject({ reason: 'invalid-path' });
    await expect(ws.write('s\udc00.txt', 'overwritten')).rejects.toMatchObject({ reason: 'invalid-path' });
    expect(await ws.read('s\ufffd.txt')).toBe('replacement character');
  });

  it('reports a folder used as a file and a missing file clearly', async () => {
    const ws = await fresh();
    await ws.write('dir/file.txt', 'x');
    await expect(ws.read('dir')).rejects.toMatchObject({ reason: 'not-a-file' });
    await expect(ws.write('dir/file.txt/inner', 'x')).rejects.toMatchObject({ reason: 'not-a-directory' });
    await expect(ws.read('nope.txt')).rejects.toThrow('Workspace read "nope.txt" failed: no such file or folder');
  });
});

describe('workspace tools', () => {
  it('read_file reads a large file in windows that never split a CJK character or an emoji', async () => {
    const ws = await fresh();
    const tools = workspaceTools(ws, { readBudget: 7 });
    // 7-character windows: a surrogate pair (emoji) and CJK land on every window edge
    const text = 'abcdef🙂漢字かなabcde👍🏽end\n'.repeat(40);
    await ws.write('big.txt', text);
    const read = byName(tools, 'read_file');
    let offset = 0;
    let joined = '';
    let calls = 0;
    for (;;) {
      const out = await read({ path: 'big.txt', offset });
      const header = /^\[big\.txt: characters (\d+)–(\d+) of (\d+); (continues at offset (\d+)|end of file)\]\n/.exec(out);
      expect(header, out.slice(0, 80)).not.toBeNull();
      const body = out.slice(header![0].length);
      expect(body).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
      expect([...body].length).toBeLessThanOrEqual(7);
      expect(Number(header![1])).toBe(offset);
      joined += body;
      calls++;
      if (header![4] === 'end of file') break;
      offset = Number(header![5]);
    }
    expect(joined).toBe(text);
    expect(calls).toBe(Math.ceil([...text].length / 7));
  });

  it('read_file returns a small file whole, without a header', async () => {
    const ws = await fresh();
    await ws.write('s.txt', 'short');
    expect(await byName(workspaceTools(ws), 'read_file')({ path: 's.txt' })).toBe('short');
  });

  it('str_replace needs exactly one match: 0 and 2 fail with the file unchanged, 1 replaces', async () => {
    const ws = await fresh();
    await ws.write('c.txt', 'one two two');
    const replace = byName(workspaceTools(ws), 'str_replace');
    await expect(replace({ path: 'c.txt', old_string: 'three', new_string: '3' })).rejects.toThrow('old_string was not found in c.txt');
    await expect(replace({ path: 'c.txt', old_string: 'two', new_string: '2' })).rejects.toThrow('old_string occurs 2 times in c.txt');
    expect(await ws.read('c.txt')).toBe('one two two');
    expect(JSON.parse(await replace({ path: 'c.txt', old_string: 'one', new_string: '1' }))).toEqual({ ok: true, path: 'c.txt', replacements: 1 });
    expect(await replace({ path: 'c.txt', old_string: 'two', new_string: '2', replace_all: true })).toContain('"replacements":2');
    expect(await ws.read('c.txt')).toBe('1 2 2');
  });

  it('write_file and list_dir answer in pagentv4\'s shapes', async () => {
    const ws = await fresh();
    const tools = workspaceTools(ws);
    expect(await byName(tools, 'write_file')({ path: 'docs/a.md', content: 'hi' })).toBe('wrote docs/a.md');
    expect(JSON.parse(await byName(tools, 'list_dir')({}))).toEqual([{ name: 'docs', is_dir: true, size: 0 }]);
    expect(JSON.parse(await byName(tools, 'list_dir')({ path: 'docs' }))).toEqual([{ name: 'a.md', is_dir: false, size: 2 }]);
  });

  it('an Agent run: a refused path and a missing file go back to the model as failed results', async () => {
    const ws = await fresh();
    let n = 0;
    const llm: AgentModel = {
      async *stream(): AsyncGenerator<AgentModelEvent> {
        const calls = n++ === 0
          ? [
              { id: 'c1', type: 'function' as const, function: { name: 'write_file', arguments: '{"path": "../escape.txt", "content": "x"}' } },
              { id: 'c2', type: 'function' as const, function: { name: 'read_file', arguments: '{"path": "nope.md"}' } },
              { id: 'c3', type: 'function' as const, function: { name: 'write_file', arguments: '{"path": "ok.md", "content": "fine"}' } },
            ]
          : [];
        yield { type: 'step', step: { content: calls.length ? '' : 'done', reasoning_content: '', tool_calls: calls, finish_reason: 'stop', usage: null } };
      },
    };
    const results: Array<[string, boolean | undefined]> = [];
    for await (const e of new Agent({ llm, tools: workspaceTools(ws) }).events('go')) {
      if (e.method === 'ToolResult') results.push([e.params.content, e.params.ok]);
    }
    expect(results).toEqual([
      ['write_file error: Workspace path "../escape.txt" refused: ".." segments are not allowed', false],
      ['read_file error: Workspace read "nope.md" failed: no such file or folder', false],
      ['wrote ok.md', true],
    ]);
    expect((await ws.files()).map((f) => f.path)).toEqual(['ok.md']);
  });

  it('a path with a C1 control or a lone surrogate comes back to the model as a failed result naming it', async () => {
    const ws = await fresh();
    const llm: AgentModel = {
      async *stream(request): AsyncGenerator<AgentModelEvent> {
        const calls = request.messages.some((m) => m.role === 'tool')
          ? []
          : [
              { id: 'c1', type: 'function' as const, function: { name: 'write_file', arguments: '{"path": "a\\u0085b.txt", "content": "x"}' } },
              { id: 'c2', type: 'function' as const, function: { name: 'write_file', arguments: '{"path": "s\\ud800.txt", "content": "x"}' } },
            ];
        yield { type: 'step', step: { content: calls.length ? '' : 'done', reasoning_content: '', tool_calls: calls, finish_reason: 'stop', usage: null } };
      },
    };
    const results: Array<[string, boolean | undefined]> = [];
    for await (const e of new Agent({ llm, tools: workspaceTools(ws) }).events('go')) {
      if (e.method === 'ToolResult') results.push([e.params.content, e.params.ok]);
    }
    expect(results).toEqual([
      ['write_file error: Workspace path "a\\u0085b.txt" refused: it contains the control character U+0085', false],
      ['write_file error: Workspace path "s\\uD800.txt" refused: it contains a lone surrogate (U+D800), which the file system would store as U+FFFD', false],
    ]);
    expect(await ws.files()).toEqual([]);
  });
});
