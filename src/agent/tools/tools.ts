/**
 * Tools for the in-browser agent: `tool()` builds one. Checking a call's arguments (./tool-args.ts) and
 * running a call (./tool-call.ts) live apart: the agent loads them when the model first calls a tool.
 */
import type { ToolSchema } from '../messages.js';
import type { ObjectSchema, SchemaArgs } from './schema-args.js';

/** What a tool's `execute` gets besides its arguments. */
export interface ToolContext {
  /** Aborted when the run is cancelled or the tool's `timeoutMs` elapses. */
  signal: AbortSignal;
  /** The id of the model's tool call being executed. */
  tool_call_id: string;
}

/** A tool call as the agent asks `approve()` about it. */
export interface ToolApprovalRequest {
  tool_call_id: string;
  name: string;
  /** The call's JSON arguments text, as the model sent it. */
  arguments: string;
}

/** Options of {@link tool}. */
export interface ToolOptions<Args = Record<string, unknown>> {
  /** The name the model calls the tool by. */
  name: string;
  /** What the model reads about the tool. */
  description: string;
  /** JSON Schema of the arguments object; arguments are checked against it before `execute`. */
  parameters: Record<string, unknown>;
  /**
   * Runs the tool. A string result is sent to the model as is; any other value is JSON-stringified
   * (`undefined` → `""`). A thrown error becomes `ToolResult{ok: false}` with `<name> error: <message>`.
   */
  execute(args: Args, ctx: ToolContext): unknown;
  /**
   * When true (or when the function returns true for the arguments), the run pauses after this call's
   * `ToolCallBegin` until the agent's `approve()` resolves.
   * @defaultValue false
   */
  needsApproval?: boolean | ((args: Args) => boolean | Promise<boolean>);
  /**
   * Milliseconds before the call is abandoned with `ToolResult{ok: false}` and its signal aborted.
   * 0 or absent: no limit.
   */
  timeoutMs?: number;
}

/** A tool the agent can offer to the model (built by {@link tool}). */
export interface Tool<Args = Record<string, unknown>> extends ToolOptions<Args> {
  /** The OpenAI function tool schema sent with each request. */
  readonly schema: ToolSchema;
}

/**
 * Defines a tool for an `Agent`. With `parameters` written as a literal object schema, `execute` gets
 * its argument type from it (`type`, `properties`, `required`, `enum`, `const`, `items`: the keywords
 * checked before `execute` runs); otherwise give the type: `tool<{ a: number }>({…})`.
 *
 * @example
 * const add = tool({
 *   name: 'add', description: 'Add two integers.',
 *   parameters: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } }, required: ['a', 'b'] },
 *   execute: ({ a, b }) => String(a + b), // a: number, b: number
 * });
 */
export function tool<const P extends ObjectSchema>(options: ToolOptions<SchemaArgs<P>> & { parameters: P }): Tool<SchemaArgs<P>>;
/** Defines a tool whose argument type is given (`tool<{ a: number }>`) or left open. */
export function tool<Args = Record<string, unknown>>(options: ToolOptions<Args>): Tool<Args>;
export function tool<Args>(options: ToolOptions<Args>): Tool<Args> {
  if (!options.name) throw new TypeError('tool(): "name" is required');
  return {
    ...options,
    schema: {
      type: 'function',
      function: { name: options.name, description: options.description, parameters: options.parameters },
    },
  };
}
