/**
 * Continuing an interrupted turn (a run with `continue: true`), loaded on the first such run: the model
 * the run talks to, wrapped so that its first step finishes the turn the interrupted run left.
 * - A turn cut while the answer streamed: the request ends with the partial answer as an assistant
 *   message (the model continues from it), and the step streams the partial text first, so the run's
 *   events, its `StepEnd` and the stored message hold the whole answer.
 * - A turn cut during its tool calls: the step is the interrupted one, replayed without asking the model;
 *   the calls that had a result keep it, a call that waited for approval is asked again, and a call that was
 *   running gets {@link INTERRUPTED_TOOL_TEXT} (it is not run twice).
 */
import type { AgentModel, AgentModelEvent, AgentModelRequest } from '../agent.js';
import type { InterruptedTurn } from '../../store/turn-pieces.js';
import type { ToolOutcome } from '../tools/tool-call.js';
import { INTERRUPTED_TOOL_TEXT } from './persistence.js';

/** What a continuing run uses: the wrapped model, and the outcome known for each call of the interrupted turn. */
export interface ContinuedTurn {
  llm: AgentModel;
  /** The outcome of a call of the interrupted turn that is not run again; `undefined` for the others. */
  known(id: string): ToolOutcome | undefined;
}

/** Wraps `llm` so that its first step finishes `turn` (see the module comment). */
export function continueTurn(llm: AgentModel, turn: InterruptedTurn): ContinuedTurn {
  let first = true;
  const { content, reasoning, calls, results, awaiting } = turn;
  async function* stream(request: AgentModelRequest): AsyncGenerator<AgentModelEvent, void, undefined> {
    if (!first) return yield* llm.stream(request);
    first = false;
    if (calls.length === 0 && content === '') return yield* llm.stream(request);
    if (reasoning !== '') yield { type: 'reasoning', text: reasoning };
    if (content !== '') yield { type: 'text', text: content };
    if (calls.length > 0) {
      yield { type: 'step', step: { content, reasoning_content: reasoning, tool_calls: calls, finish_reason: 'tool_calls', usage: null } };
      return;
    }
    const partial: AgentModelRequest['messages'][number] = { role: 'assistant', content };
    if (reasoning !== '') partial.reasoning_content = reasoning;
    for await (const event of llm.stream({ ...request, messages: [...request.messages, partial] })) {
      yield event.type === 'step'
        ? { type: 'step', step: { ...event.step, content: content + event.step.content, reasoning_content: reasoning + event.step.reasoning_content } }
        : event;
    }
  }
  const wrapped: AgentModel = { stream };
  if (llm.redact) wrapped.redact = (text) => llm.redact!(text);
  return {
    llm: wrapped,
    known: (id) => {
      const result = results[id];
      if (result) return { content: result.content, ok: result.ok };
      return calls.some((c) => c.id === id) && !awaiting.includes(id) ? { content: INTERRUPTED_TOOL_TEXT, ok: false } : undefined;
    },
  };
}
