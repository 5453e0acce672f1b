/**
 * One model tool call → one tool result, with pagent's fault texts. The agent loads this module by
 * `import()` when the model first calls a tool: a run without tool calls never downloads it.
 */
// Types only: a value import of a module the agent's own chunk holds (tool-args.ts) would make bundlers
// split it into a chunk of its own that every agent loads; the agent hands the check in (`check`).
import type { checkArguments } from './tool-args.js';
import type { Tool, ToolApprovalRequest } from './tools.js';

/** The outcome of one tool call: the text sent back to the model and whether it succeeded. */
export interface ToolOutcome {
  content: string;
  ok: boolean;
  /**
   * How long `execute` ran (until it settled or timed out), in milliseconds; absent when it never ran
   * (unknown tool, bad arguments, denied). The wait for approval is not in it.
   */
  elapsedMs?: number;
}

/** Python's `repr()` of a string, as pagent writes tool names in its fault texts. */
function pyRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ch === '\\') out += '\\\\';
    else if (ch === quote) out += `\\${quote}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return out + quote;
}

/** pagent's text for a call to a tool it does not have: `error: unknown tool 'x'; available: ['a', 'b']`. */
export function unknownToolText(name: string, available: Iterable<string>): string {
  const names = [...available].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `error: unknown tool ${pyRepr(name)}; available: [${names.map(pyRepr).join(', ')}]`;
}

// errorMessage() of errors.ts, written out: a value import of errors.ts from this lazy chunk would make bundlers
// split errors.ts into a chunk of its own that every page loads.
/** A thrown value's message (as `errorMessage()` of errors.ts). */
export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Options for {@link runToolCall}. */
export interface RunToolCallOptions {
  /** Aborts the call (the run was cancelled). */
  signal: AbortSignal;
  /** Asked after validation for tools with `needsApproval`; absent → every such call is denied. */
  approve?: ((call: ToolApprovalRequest) => Promise<boolean> | boolean) | undefined;
  /** The argument check (`checkArguments` of ./tool-args.ts). */
  check: typeof checkArguments;
}

/** Thrown by {@link runToolCall} when its signal aborts; carries nothing the model should see. */
export class ToolCallAborted extends Error {
  override name = 'ToolCallAborted' as const;
}

/**
 * `value` (a promise, a thenable or a plain value) unless `signal` aborts first: then a
 * {@link ToolCallAborted}. Tool calls and tool hooks (./hooks.ts) both wait through it.
 */
export function abortable<T>(value: T | PromiseLike<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new ToolCallAborted('aborted'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new ToolCallAborted('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    Promise.resolve(value).then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

/**
 * Runs one model tool call: unknown tool → `error: unknown tool …; available: [...]`; arguments that
 * are not JSON → `Invalid JSON in tool arguments: …`; arguments that break the schema →
 * `<name> error: invalid arguments: …`; denied approval → `<name> error: denied …`; a throw or a timeout →
 * `<name> error: …`. All of these are `ok: false` and go back to the model. Empty arguments text is
 * read as `{}` (providers send `""` for tools without parameters).
 *
 * @throws {ToolCallAborted} when `options.signal` aborts before the outcome is known.
 */
export async function runToolCall(
  tools: ReadonlyMap<string, Tool<never>>,
  call: ToolApprovalRequest,
  options: RunToolCallOptions,
): Promise<ToolOutcome> {
  const { signal } = options;
  const found = tools.get(call.name);
  if (!found) return { content: unknownToolText(call.name, tools.keys()), ok: false };
  const t = found as unknown as Tool<unknown>;

  let args: unknown;
  try {
    args = call.arguments.trim() === '' ? {} : JSON.parse(call.arguments);
  } catch (err) {
    return { content: `Invalid JSON in tool arguments: ${errorText(err)}`, ok: false };
  }
  const problems = options.check(args, t.parameters);
  if (problems.length > 0) {
    return { content: `${t.name} error: invalid arguments: ${problems.join('; ')}`, ok: false };
  }

  const needs = typeof t.needsApproval === 'function' ? await abortable(t.needsApproval(args), signal) : t.needsApproval === true;
  if (needs) {
    if (!options.approve) return { content: `${t.name} error: denied (no approve function is configured)`, ok: false };
    let approved: boolean;
    try {
      approved = await abortable(options.approve({ ...call }), signal);
    } catch (err) {
      if (err instanceof ToolCallAborted) throw err;
      return { content: `${t.name} error: denied (approval failed: ${errorText(err)})`, ok: false };
    }
    if (approved !== true) return { content: `${t.name} error: denied by the user`, ok: false };
  }

  const controller = new AbortController();
  const onRunAbort = (): void => controller.abort(signal.reason);
  signal.addEventListener('abort', onRunAbort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeoutMs = t.timeoutMs ?? 0;
  const timedOut = new Promise<ToolOutcome>((resolve) => {
    if (timeoutMs <= 0) return;
    timer = setTimeout(() => {
      controller.abort(new DOMException(`${t.name} timed out after ${timeoutMs} ms`, 'TimeoutError'));
      resolve({ content: `${t.name} error: timed out after ${timeoutMs} ms`, ok: false });
    }, timeoutMs);
  });
  const started = performance.now();
  const executed = (async (): Promise<ToolOutcome> => {
    try {
      const value: unknown = await t.execute(args, { signal: controller.signal, tool_call_id: call.tool_call_id });
      return { content: typeof value === 'string' ? value : (JSON.stringify(value) ?? ''), ok: true };
    } catch (err) {
      return { content: `${t.name} error: ${errorText(err)}`, ok: false };
    }
  })();
  try {
    const outcome = await abortable(Promise.race([executed, timedOut]), signal);
    return { ...outcome, elapsedMs: performance.now() - started };
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onRunAbort);
  }
}
