import type { AgentModel, AgentModelEvent, AgentModelRequest } from '../../../src/agent/agent.js';
import type { ChatMessage } from '../../../src/agent/messages.js';
import type { ToolCall, Usage } from '../../../src/wire/events.js';

/** One scripted model step: deltas, then the assembled step; or a failure at some point. */
export interface ScriptedStep {
  text?: string[];
  reasoning?: string[];
  toolCalls?: ToolCall[];
  usage?: Usage | null;
  /** Thrown after the deltas instead of finishing the step. */
  error?: unknown;
  /** Called after the deltas, before the step (a test hook, e.g. to abort). */
  beforeStep?: () => void | Promise<void>;
}

/** A recorded model request (messages deep-copied at call time). */
export interface RecordedRequest {
  messages: ChatMessage[];
  tools: AgentModelRequest['tools'];
  kwargs: AgentModelRequest['kwargs'];
}

export function call(id: string, name: string, args: string): ToolCall {
  return { id, type: 'function', function: { name, arguments: args } };
}

/** A model that plays the given steps in order, one per request, and records the requests. */
export function scriptedModel(steps: ScriptedStep[] | ((n: number) => ScriptedStep)): AgentModel & { requests: RecordedRequest[] } {
  const requests: RecordedRequest[] = [];
  return {
    requests,
    async *stream(request: AgentModelRequest): AsyncGenerator<AgentModelEvent> {
      const n = requests.length;
      requests.push({ messages: structuredClone(request.messages), tools: request.tools, kwargs: request.kwargs });
      const step = typeof steps === 'function' ? steps(n) : steps[n];
      if (!step) throw new Error(`no scripted step #${n + 1}`);
      for (const text of step.reasoning ?? []) {
        request.signal?.throwIfAborted();
        yield { type: 'reasoning', text };
      }
      for (const text of step.text ?? []) {
        request.signal?.throwIfAborted();
        yield { type: 'text', text };
      }
      await step.beforeStep?.();
      request.signal?.throwIfAborted();
      if (step.error !== undefined) throw step.error;
      yield {
        type: 'step',
        step: {
          content: (step.text ?? []).join(''),
          reasoning_content: (step.reasoning ?? []).join(''),
          tool_calls: step.toolCalls ?? [],
          finish_reason: step.toolCalls?.length ? 'tool_calls' : 'stop',
          usage: step.usage ?? null,
        },
      };
    },
  };
}
