/**
 * The `agent` run source: an in-browser `Agent` or a `RemoteAgent` runs each message through
 * `agent.events(input, options)`, ordered with its other runs and conversation switches (./agent-runs.ts),
 * with the element's run options (its approvals, questions, state and steering).
 */
import { messageParts } from '../attachments/content-parts.js';
import type { AgentRuns, ChatAgent, ChatAgentRunOptions } from './agent-runs.js';
import type { RunSource } from './run-controller.js';
import type { ChatRunSource } from './run-source.js';

/** The element's side of an agent source. */
export interface AgentSourceOptions {
  /** The run options of every run the element starts. */
  runOptions(): Omit<ChatAgentRunOptions, 'signal' | 'retry'>;
  /** Wraps a run (under the conversation's lock across tabs, when that part is loaded). */
  hold(source: RunSource): RunSource;
}

/** Runs each message on `agent`, its files as OpenAI content parts. */
export function createAgentSource(agent: ChatAgent, runs: AgentRuns, options: AgentSourceOptions): ChatRunSource {
  return {
    logsLines: false,
    open: ({ text, retry, attachments }) => {
      const input = attachments.length > 0 ? messageParts(text, attachments) : text;
      return options.hold(runs.source(agent, input, { ...options.runOptions(), retry }));
    },
  };
}
