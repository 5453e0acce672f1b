/**
 * What a `RemoteAgent` run asks of the page: the user's answer to a back end's question (an approval
 * through `approve`, anything else through `interrupt`) and the calls the back end leaves to the page's
 * tools, run with the same checks, hooks and approvals as an `Agent`'s.
 */
import { errorMessage } from '../../errors.js';
import type { ToolCall, WireEvent } from '../../wire/events.js';
import { checkArguments } from '../tools/tool-args.js';
import type { ToolOutcome } from '../tools/tool-call.js';
import type { Tool, ToolApprovalRequest } from '../tools/tools.js';
import type { RemoteAnswer, RemoteInterrupt } from './protocol.js';
import type { RemoteAgentOptions } from './remote-agent-options.js';
import type { RunState } from './remote-turns.js';

/** The page's side of a run: its tools and hooks, and the run's (else the agent's) handlers. */
export interface PageHandlers {
  tools: ReadonlyMap<string, Tool<never>>;
  hooks: RemoteAgentOptions['hooks'];
  approve: RemoteAgentOptions['approve'];
  interrupt: RemoteAgentOptions['interrupt'];
}

let modules: Promise<[typeof import('../tools/tool-call.js'), typeof import('../tools/hooks.js')]> | undefined;
const loadToolModules = (): Promise<[typeof import('../tools/tool-call.js'), typeof import('../tools/hooks.js')]> =>
  (modules ??= Promise.all([import('../tools/tool-call.js'), import('../tools/hooks.js')]));

/**
 * Asks the user a question of the back end: approvals through `approve` (a confirmation shows as a
 * call of its own, `confirmation`, so the approve / deny controls have a card), anything else through
 * `interrupt`. A failure or no handler dismisses it.
 */
export async function* askUser(question: RemoteInterrupt, run: RunState, page: PageHandlers, signal: AbortSignal): AsyncGenerator<WireEvent, RemoteAnswer, undefined> {
  const { approve } = page;
  const call = question.toolCallId === undefined ? undefined : findCall(run, question.toolCallId);
  if (question.reason === 'tool_call' && call) {
    const approved = await approval(approve, { tool_call_id: call.id, name: call.function.name, arguments: call.function.arguments }, signal);
    return { status: 'resolved', payload: { approved } };
  }
  if (question.reason === 'confirmation') {
    const card: ToolApprovalRequest = { tool_call_id: question.id, name: 'confirmation', arguments: JSON.stringify({ message: question.message ?? '' }) };
    yield { method: 'ToolCallBegin', params: { ...card } };
    const approved = await approval(approve, card, signal);
    if (signal.aborted) return { status: 'cancelled' };
    yield { method: 'ToolResult', params: { tool_call_id: question.id, name: 'confirmation', content: approved ? 'approved' : 'denied by the user', ok: approved } };
    const schema = question.responseSchema;
    const properties = schema?.['properties'];
    const wantsObject = typeof properties === 'object' && properties !== null && 'approved' in properties;
    return { status: 'resolved', payload: wantsObject ? { approved } : approved };
  }
  const handler = page.interrupt;
  if (!handler) return { status: 'cancelled' };
  try {
    const payload: unknown = await handler(question, { signal });
    return payload === undefined ? { status: 'cancelled' } : { status: 'resolved', payload };
  } catch {
    return { status: 'cancelled' };
  }
}

/** A call of the run by id: one of the open turn, else one the conversation holds. */
function findCall(run: RunState, id: string): ToolCall | undefined {
  const open = run.calls.find((c) => c.id === id);
  if (open) return open;
  for (const message of run.conversation.session.messages) {
    const found = message.role === 'assistant' ? message.tool_calls?.find((c) => c.id === id) : undefined;
    if (found) return found;
  }
  return undefined;
}

/** The user's decision on an approval; false when refused, failed or cancelled. */
async function approval(approve: PageHandlers['approve'], call: ToolApprovalRequest, signal: AbortSignal): Promise<boolean> {
  if (!approve) return false;
  try {
    const [m] = await loadToolModules();
    return (await m.abortable(approve({ ...call }), signal)) === true;
  } catch {
    return false;
  }
}

/** Runs a call the back end left open: a page tool (hooks, checks, approval) or pagent's unknown-tool fault. */
export async function callPageTool(call: ToolCall, page: PageHandlers, signal: AbortSignal): Promise<ToolOutcome | undefined> {
  const [m, h] = await loadToolModules();
  const request: ToolApprovalRequest = { tool_call_id: call.id, name: call.function.name, arguments: call.function.arguments };
  const { tools, approve, hooks } = page;
  const runIt = (): Promise<ToolOutcome> => m.runToolCall(tools, request, { signal, approve, check: checkArguments });
  try {
    const outcome = hooks && tools.has(call.function.name) ? await h.runHookedToolCall(request, signal, hooks, runIt) : await runIt();
    return signal.aborted ? undefined : outcome;
  } catch (err) {
    if (signal.aborted) return undefined;
    return { content: `${call.function.name} error: ${errorMessage(err)}`, ok: false };
  }
}

/** Calls each of the page's callbacks given (the agent's, the run's) with `value`; a throwing one must not fail the run. */
export function tellPage<T>(callbacks: readonly (((value: T) => void) | undefined)[], value: T): void {
  for (const report of callbacks) {
    try {
      report?.(value);
    } catch {
      // the page's callback must not fail the run
    }
  }
}
