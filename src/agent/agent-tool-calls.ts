/**
 * How an `Agent` runs its tool calls: one call through the hooks, with the code that runs calls loaded
 * on the first one, and the calls that need no approval started at once in parallel mode.
 */
import type { RunOptions } from './agent-options.js';
import type { ToolHooks } from './tools/hooks.js';
import { checkArguments } from './tools/tool-args.js';
import type { RunToolCallOptions, ToolOutcome } from './tools/tool-call.js';
import type { Tool, ToolApprovalRequest } from './tools/tools.js';
import type { ToolCall } from '../wire/events.js';

/** An agent's tools by name, and the hooks around every call. */
export interface AgentTools {
  tools: ReadonlyMap<string, Tool<never>>;
  hooks: ToolHooks | undefined;
}

/** A call started ahead of its turn in the loop, and when it started. */
export interface EarlyCall {
  outcome: Promise<ToolOutcome>;
  started: number;
}

let toolCall: Promise<typeof import('./tools/tool-call.js')> | undefined;
/** The tool-call module, loaded once, on the first tool call of any agent. */
const loadToolCall = (): Promise<typeof import('./tools/tool-call.js')> => (toolCall ??= import('./tools/tool-call.js'));

/** Starts, at once, the calls that need no approval (parallel mode); the others start in order. */
export function startEarly(tools: AgentTools, calls: ToolCall[], approve: RunOptions['approve'], signal: AbortSignal, known: ((id: string) => unknown) | undefined): Map<string, EarlyCall> {
  const started = new Map<string, EarlyCall>();
  for (const call of calls) {
    const t = tools.tools.get(call.function.name);
    if ((t && t.needsApproval !== undefined && t.needsApproval !== false) || known?.(call.id)) continue;
    const request = { tool_call_id: call.id, name: call.function.name, arguments: call.function.arguments };
    const outcome = callTool(tools, request, { signal, approve });
    outcome.catch(() => undefined);
    started.set(call.id, { outcome, started: performance.now() });
  }
  return started;
}

/**
 * One tool call, through the hooks when there are any. The code that runs a call (and the hooks) is
 * loaded on the first call; a call whose run was cancelled meanwhile does not start.
 */
export async function callTool({ tools, hooks }: AgentTools, request: ToolApprovalRequest, options: Omit<RunToolCallOptions, 'check'>): Promise<ToolOutcome> {
  const [m, h] = await Promise.all([loadToolCall(), hooks && import('./tools/hooks.js')]);
  if (options.signal.aborted) throw new m.ToolCallAborted('aborted');
  const run = (): Promise<ToolOutcome> => m.runToolCall(tools, request, { ...options, check: checkArguments });
  return h ? h.runHookedToolCall(request, options.signal, hooks!, run) : run();
}
