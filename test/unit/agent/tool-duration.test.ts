import { afterEach, describe, expect, it, vi } from 'vitest';
import { Agent } from '../../../src/agent/agent.js';
import { tool } from '../../../src/agent/tools/tools.js';
import type { ParamsOf, WireEvent } from '../../../src/wire/events.js';
import { call, scriptedModel } from './scripted-model.js';

// issue 10, item 17: a tool card's duration is the tool's execution time, not the time the human took to approve.
describe('ToolResult.elapsed_ms', () => {
  afterEach(() => vi.useRealTimers());

  it('counts only the execution, not the wait for approval', async () => {
    vi.useFakeTimers({ toFake: ['performance', 'Date', 'setTimeout', 'clearTimeout'] });
    const slowTool = tool({
      name: 'deploy',
      description: 'Deploys.',
      parameters: { type: 'object' },
      needsApproval: true,
      execute: () => {
        vi.advanceTimersByTime(40); // the tool itself takes 40 ms
        return 'deployed';
      },
    });
    const agent = new Agent({
      llm: scriptedModel([{ toolCalls: [call('c1', 'deploy', '{}')] }, { text: ['Done.'] }]),
      tools: [slowTool],
      approve: () => {
        vi.advanceTimersByTime(5000); // the human takes 5 s to decide
        return true;
      },
    });
    const events: WireEvent[] = [];
    for await (const e of agent.events('Deploy it')) events.push(e);
    const result = events.find((e) => e.method === 'ToolResult')!.params as ParamsOf<'ToolResult'>;
    expect(result.ok).toBe(true);
    expect(result.elapsed_ms).toBe(40);
  });

  it('counts the execution of a tool that needs no approval as before', async () => {
    vi.useFakeTimers({ toFake: ['performance', 'Date', 'setTimeout', 'clearTimeout'] });
    const t = tool({ name: 't', description: '', parameters: { type: 'object' }, execute: () => (vi.advanceTimersByTime(12), 'ok') });
    const agent = new Agent({ llm: scriptedModel([{ toolCalls: [call('c1', 't', '{}')] }, { text: ['x'] }]), tools: [t], parallelTools: true });
    const events: WireEvent[] = [];
    for await (const e of agent.events('go')) events.push(e);
    expect((events.find((e) => e.method === 'ToolResult')!.params as ParamsOf<'ToolResult'>).elapsed_ms).toBe(12);
  });
});
