// <pagent-chat> with the Runner features: "send now" steers the agent's run; the files panel of a workspace.
import { expect as chaiExpect } from '@open-wc/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, type AgentModel, type AgentModelEvent, type AgentModelRequest } from '../../../src/agent/agent.js';
import { Session } from '../../../src/agent/sessions/session.js';
import { tool } from '../../../src/agent/tools/tools.js';
import { workspaceTools } from '../../../src/agent/tools/workspace-tools.js';
import { createWorkspace, type Workspace } from '../../../src/store/workspace.js';
import { timelineFromMessages } from '../../../src/chat/timeline/rebuild.js';
import { $, $$, answers, chatFixture, until } from './helpers.js';

/** The timeline's rows as short labels, in order: `user:<text>`, `tool:<name>`, `answer:<text>`. */
function rows(el: HTMLElement): string[] {
  const root = el.shadowRoot!;
  return [...root.querySelectorAll<HTMLElement>('[part~="message"], [part~="tool-call"]')].flatMap((n) => {
    const part = n.getAttribute('part') ?? '';
    if (part.includes('tool-call')) return [`tool:${n.querySelector('[part="tool-name"]')?.textContent ?? ''}`];
    if (part.includes('user')) return [`user:${n.querySelector('[part="message-text"]')?.textContent ?? ''}`];
    const text = n.querySelector('[part~="answer-text"]')?.textContent ?? '';
    return text ? [`answer:${text}`] : [];
  });
}

describe('<pagent-chat> "send now"', () => {
  it('during a tool call, steers the agent: the message shows after the tool card and reaches the next model call', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const lookup = tool({ name: 'lookup', description: 'Slow lookup.', parameters: { type: 'object' }, execute: async () => (await gate, 'found') });
    const requests: AgentModelRequest[] = [];
    const llm: AgentModel = {
      async *stream(request): AsyncGenerator<AgentModelEvent> {
        requests.push(structuredClone({ messages: request.messages }));
        const first = requests.length === 1;
        if (!first) yield { type: 'text', text: 'En français : trouvé.' };
        yield { type: 'step', step: { content: first ? '' : 'En français : trouvé.', reasoning_content: '', tool_calls: first ? [{ id: 'c1', type: 'function', function: { name: 'lookup', arguments: '{}' } }] : [], finish_reason: 'stop', usage: null } };
      },
    };
    const el = await chatFixture();
    el.agent = new Agent({ llm, session: new Session('sys'), tools: [lookup] });
    await el.updateComplete;
    el.send('Look it up');
    await until(() => $(el, '[part="steer-button"]') !== null, 'the send-now button');
    expect($(el, '[part="stop-button"]')).not.toBeNull();
    await chaiExpect(el).to.be.accessible();
    const input = $<HTMLTextAreaElement>(el, '[part="input"]')!;
    input.value = 'Answer in French';
    $<HTMLButtonElement>(el, '[part="steer-button"]')!.click();
    expect(input.value).toBe('');
    release();
    await until(() => answers(el).at(-1) === 'En français : trouvé.', 'the final answer');
    expect(rows(el)).toEqual(['user:Look it up', 'tool:lookup', 'user:Answer in French', 'answer:En français : trouvé.']);
    expect(requests[1]!.messages.map((m) => `${m.role}:${m.content ?? ''}`)).toEqual([
      'system:sys', 'user:Look it up', 'assistant:', 'tool:found', 'user:Answer in French',
    ]);
    expect($(el, '[part="steer-button"]')).toBeNull();
    // reopened from the stored messages, the steered message is at the same place
    const reopened = timelineFromMessages((el.agent as Agent).session.messages);
    expect(reopened.items.filter((i) => i.kind === 'user').map((i) => (i as { text: string }).text)).toEqual(['Look it up', 'Answer in French']);
  });

  it('offers no "send now" for a source that cannot be steered', async () => {
    const el = await chatFixture();
    el.push({ method: 'RunBegin', params: { user_input: 'hi' } });
    await el.updateComplete;
    expect($(el, '[part="stop-button"]')).not.toBeNull();
    expect($(el, '[part="steer-button"]')).toBeNull();
  });
});

describe('<pagent-chat> files panel', () => {
  let ws: Workspace | undefined;
  afterEach(async () => {
    await ws?.clear();
  });

  it('lists the workspace files as the agent writes them; download and delete work from the panel', async () => {
    ws = await createWorkspace({ name: `panel-${crypto.randomUUID()}` });
    await ws.write('<img src=x onerror=alert(1)>.md', 'x');
    let n = 0;
    const llm: AgentModel = {
      async *stream(): AsyncGenerator<AgentModelEvent> {
        const calls = n++ === 0 ? [{ id: 'c1', type: 'function' as const, function: { name: 'write_file', arguments: '{"path": "notes/今日.md", "content": "# 今日 🙂"}' } }] : [];
        yield { type: 'step', step: { content: calls.length ? '' : 'Saved.', reasoning_content: '', tool_calls: calls, finish_reason: 'stop', usage: null } };
      },
    };
    const el = await chatFixture((e) => {
      e.workspace = ws;
    });
    await until(() => $$(el, '[part="file"]').length === 1, 'the existing file');
    expect($(el, '[part="file"] .file-path')!.textContent).toBe('<img src=x onerror=alert(1)>.md');
    expect($(el, '[part="file"] img')).toBeNull();
    el.agent = new Agent({ llm, tools: workspaceTools(ws) });
    el.send('Save a note');
    await until(() => $$(el, '[part="file"]').length === 2, 'the written file');
    expect($$(el, '[part="file"] .file-path').map((n) => n.textContent)).toEqual(['<img src=x onerror=alert(1)>.md', 'notes/今日.md']);
    await chaiExpect(el).to.be.accessible();

    const clicked: Array<{ href: string; download: string }> = [];
    const original = HTMLAnchorElement.prototype.click;
    HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download });
    };
    try {
      $<HTMLButtonElement>(el, '[part="file"]:last-child [part="file-download"]')!.click();
      await until(() => clicked.length === 1, 'the download');
    } finally {
      HTMLAnchorElement.prototype.click = original;
    }
    expect(clicked[0]!.download).toBe('今日.md');
    expect(await (await fetch(clicked[0]!.href)).text()).toBe('# 今日 🙂');

    $<HTMLButtonElement>(el, '[part="file"]:first-child [part="file-delete"]')!.click();
    await until(() => $$(el, '[part="file"]').length === 1, 'the delete');
    expect((await ws.files()).map((f) => f.path)).toEqual(['notes/今日.md']);
  });
});
