/**
 * Agent loop overhead: what the loop adds on top of the model stream it drives, and the cost of the
 * sliding window over a long history.
 */
import type { BenchCase } from './harness.js';
import { Agent, type AgentModel, type AgentModelEvent } from '../src/agent/agent.js';
import type { ChatMessage } from '../src/agent/messages.js';
import { estimateTokens, Session, SlidingWindowSession } from '../src/agent/sessions/session.js';
import { tool } from '../src/agent/tools/tools.js';

const DELTAS = 10_000;
const texts = Array.from({ length: DELTAS }, (_, i) => `token${i % 97} `);

function model(toolRounds: number): AgentModel {
  let calls = 0;
  return {
    async *stream(): AsyncGenerator<AgentModelEvent> {
      const round = calls++;
      for (const text of texts) yield { type: 'text', text };
      const toolCalls = round < toolRounds ? [{ id: `c${round}`, type: 'function' as const, function: { name: 'echo', arguments: '{"text": "x"}' } }] : [];
      yield { type: 'step', step: { content: '', reasoning_content: '', tool_calls: toolCalls, finish_reason: 'stop', usage: null } };
    },
  };
}

async function drainModel(): Promise<number> {
  let n = 0;
  for await (const e of model(0).stream({ messages: [] })) if (e.type === 'text') n += e.text.length;
  return n;
}

const echo = tool<{ text: string }>({
  name: 'echo', description: '', parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  execute: ({ text }) => text,
});

let eventCount = 0;
async function runAgent(): Promise<number> {
  const agent = new Agent({ llm: model(0), session: new Session('sys') });
  let n = 0;
  for await (const e of agent.events('q')) {
    n++;
    if (e.method === 'TextDelta') n += e.params.text.length;
  }
  eventCount = n;
  return n;
}

const history: ChatMessage[] = [];
for (let i = 0; i < 5_000; i++) {
  history.push({ role: 'user', content: `question ${i} 你好` }, { role: 'assistant', content: `answer ${i} with some words` });
}
const windowed = new SlidingWindowSession('sys', { maxTokens: 4_000 });
windowed.append(...history);
let windowSize = 0;

export const cases: BenchCase[] = [
  {
    name: `agent.events(): one turn of ${DELTAS} text deltas`,
    baselineName: 'draining the same model stream directly',
    baseline: drainModel,
    subject: runAgent,
    notes: () => [`${eventCount} (events + text chars) counted per run`],
  },
  {
    name: 'agent.events(): 4 turns with a tool call each (40k deltas)',
    baselineName: 'draining 4 model streams directly',
    baseline: async () => {
      for (let i = 0; i < 4; i++) await drainModel();
    },
    subject: async () => {
      const agent = new Agent({ llm: model(3), tools: [echo] });
      for await (const _ of agent.events('q')) void _;
    },
  },
  {
    name: 'tool hooks: 4 turns with a tool call each, `hooks: {before: [], after: []}`',
    baselineName: 'the same agent without the hooks option',
    baseline: async () => {
      for await (const _ of new Agent({ llm: model(3), tools: [echo] }).events('q')) void _;
    },
    subject: async () => {
      for await (const _ of new Agent({ llm: model(3), tools: [echo], hooks: { before: [], after: [] } }).events('q')) void _;
    },
    notes: () => ['empty hook lists take the no-hooks path: the ratio should stay near 1'],
  },
  {
    name: 'tool hooks: 4 turns with a tool call each, one allowing before hook and one after hook',
    baselineName: 'the same agent without hooks',
    baseline: async () => {
      for await (const _ of new Agent({ llm: model(3), tools: [echo] }).events('q')) void _;
    },
    subject: async () => {
      const hooks = { before: [() => undefined], after: [() => undefined] };
      for await (const _ of new Agent({ llm: model(3), tools: [echo], hooks }).events('q')) void _;
    },
  },
  {
    name: 'SlidingWindowSession.window() over 10k messages, 4k-token budget',
    baselineName: 'estimateTokens over every message',
    baseline: () => history.reduce((sum, m) => sum + estimateTokens(typeof m.content === 'string' ? m.content : ''), 0),
    subject: () => {
      windowSize = windowed.window().length;
    },
    notes: () => [`window keeps ${windowSize} of ${history.length} messages`],
  },
];
