/**
 * Tool hooks (pagentv4's `ToolHooks`): `before` hooks may allow, deny or replace a call before it runs,
 * `after` hooks may replace what it returned. The agent's events keep their order: `ToolCallBegin`,
 * the hooks, the tool (or not), `ToolResult`.
 */
// Loaded by import() when an agent has hooks, together with the tool-call module it waits through.
import type { ToolApprovalRequest } from './tools.js';
import { abortable, errorText, ToolCallAborted, type ToolOutcome } from './tool-call.js';

/** What a `before` hook sees: the call as the model sent it, and the run's abort signal. */
export interface BeforeToolContext {
  tool_call_id: string;
  name: string;
  /** The call's JSON arguments text, as the model sent it (not yet parsed or checked). */
  arguments: string;
  /** Aborted when the run is cancelled. */
  signal: AbortSignal;
}

/** What an `after` hook sees: the call and its outcome so far (earlier `after` hooks applied). */
export interface AfterToolContext {
  tool_call_id: string;
  name: string;
  arguments: string;
  /** The text the model will get, unless a hook replaces it. */
  content: string;
  /** Whether the call succeeded (false for tool errors, timeouts, unknown tools, bad arguments…). */
  ok: boolean;
}

/**
 * A `before` decision: `undefined` allows the call; `{deny: message}` skips the tool and fails the call
 * with `message` as its result; `{replace: content}` skips the tool and succeeds with `content`.
 */
export type BeforeToolDecision = undefined | void | { deny: string } | { replace: string };

/** An `after` decision: `undefined` keeps the outcome; `{content, ok?}` replaces it (`ok` kept when absent). */
export type AfterToolDecision = undefined | void | { content: string; ok?: boolean };

/** Runs before a tool call; may be async. */
export type BeforeToolHook = (ctx: BeforeToolContext) => BeforeToolDecision | Promise<BeforeToolDecision>;
/** Runs after a tool call; may be async. */
export type AfterToolHook = (ctx: AfterToolContext) => AfterToolDecision | Promise<AfterToolDecision>;

/**
 * The `hooks` option of an `Agent`. `before` hooks run in order until one denies or replaces (the rest
 * are skipped, and so are the tool and the `after` hooks); `after` hooks run in order, each seeing the
 * outcome the previous one left. A hook that throws fails that call (`ToolResult{ok: false}`, content
 * `<name> error: tool hook failed: <message>`) and the run goes on.
 */
export interface ToolHooks {
  before?: readonly BeforeToolHook[];
  after?: readonly AfterToolHook[];
}

function hookFailure(name: string, err: unknown): ToolOutcome {
  return { content: `${name} error: tool hook failed: ${errorText(err)}`, ok: false };
}

/**
 * Runs one tool call through the hooks: `before` hooks, then `runTool` (the agent's `runToolCall`: checks,
 * approval, execution), then `after` hooks.
 *
 * @throws {ToolCallAborted} when the run's signal aborts before the outcome is known (also
 * during a hook).
 */
export async function runHookedToolCall(
  call: ToolApprovalRequest,
  signal: AbortSignal,
  hooks: ToolHooks,
  runTool: () => Promise<ToolOutcome>,
): Promise<ToolOutcome> {
  for (const hook of hooks.before ?? []) {
    let decision: BeforeToolDecision;
    try {
      decision = await abortable(hook({ ...call, signal }), signal);
    } catch (err) {
      if (err instanceof ToolCallAborted || signal.aborted) throw new ToolCallAborted('aborted');
      return hookFailure(call.name, err);
    }
    if (decision && 'deny' in decision) return { content: String(decision.deny), ok: false };
    if (decision && 'replace' in decision) return { content: String(decision.replace), ok: true };
  }
  let outcome = await runTool();
  for (const hook of hooks.after ?? []) {
    let decision: AfterToolDecision;
    try {
      decision = await abortable(hook({ ...call, content: outcome.content, ok: outcome.ok }), signal);
    } catch (err) {
      if (err instanceof ToolCallAborted || signal.aborted) throw new ToolCallAborted('aborted');
      return hookFailure(call.name, err);
    }
    if (decision && typeof decision.content === 'string') {
      outcome = { content: decision.content, ok: typeof decision.ok === 'boolean' ? decision.ok : outcome.ok };
    }
  }
  return outcome;
}
