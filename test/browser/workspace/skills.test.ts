// Skills read from a real OPFS workspace, loaded by the model through use_skill in an Agent run.
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, type AgentModel, type AgentModelEvent, type AgentModelRequest } from '../../../src/agent/agent.js';
import { Session } from '../../../src/agent/sessions/session.js';
import { createSkillRegistry, useSkillTool } from '../../../src/agent/tools/skills.js';
import { workspaceTools } from '../../../src/agent/tools/workspace-tools.js';
import { createWorkspace, type Workspace } from '../../../src/store/workspace.js';

let ws: Workspace | undefined;
afterEach(async () => {
  await ws?.clear();
});

describe('skills from a workspace', () => {
  it('lists SKILL.md packs at any depth with their resources; the model sees the summary and loads one', async () => {
    ws = await createWorkspace({ name: `skills-${crypto.randomUUID()}` });
    await ws.write('skills/haiku/SKILL.md', '---\nname: haiku\ndescription: Write a haiku (5-7-5)\n---\nCount syllables. Use templates/form.txt.\n');
    await ws.write('skills/haiku/templates/form.txt', '5 / 7 / 5');
    await ws.write('skills/nameless/SKILL.md', '---\ndescription: Uses its folder name\n---\nBody');
    await ws.write('notes.md', 'not a skill');
    const registry = createSkillRegistry(ws);
    const skills = await registry.skills();
    expect(skills.map((s) => [s.name, s.path, s.resources])).toEqual([
      ['haiku', 'skills/haiku/SKILL.md', ['skills/haiku/templates/form.txt']],
      ['nameless', 'skills/nameless/SKILL.md', []],
    ]);

    const requests: AgentModelRequest[] = [];
    const llm: AgentModel = {
      async *stream(request): AsyncGenerator<AgentModelEvent> {
        requests.push(structuredClone({ messages: request.messages, tools: request.tools }));
        const first = requests.length === 1;
        const tool_calls = first ? [{ id: 'c1', type: 'function' as const, function: { name: 'use_skill', arguments: '{"name":"haiku"}' } }] : [];
        yield { type: 'step', step: { content: first ? '' : 'An old silent pond', reasoning_content: '', tool_calls, finish_reason: 'stop', usage: null } };
      },
    };
    const session = new Session(`You are helpful.\n\n${await registry.summary()}`);
    const agent = new Agent({ llm, session, tools: [...workspaceTools(ws), useSkillTool(registry)] });
    await agent.run('Write a haiku');
    expect(requests[0]!.messages[0]!.content).toContain('- haiku: Write a haiku (5-7-5)\n- nameless: Uses its folder name');
    expect(requests[0]!.tools!.map((t) => t.function.name)).toContain('use_skill');
    const loaded = JSON.parse(requests[1]!.messages.at(-1)!.content as string);
    expect(loaded).toMatchObject({ ok: true, name: 'haiku', instructions: 'Count syllables. Use templates/form.txt.' });
  });
});
