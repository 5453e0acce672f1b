/**
 * Tools for the in-browser agent: `tool()` builds one, `checkArguments` checks parsed arguments against
 * its JSON Schema, `runToolCall` turns one model tool call into a tool result with pagent's fault texts.
 */
import type { ToolSchema } from './messages.js';
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

// ---- argument checks: a small, hand-written JSON Schema subset ---------------------------------

type Schema = Record<string, unknown>;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function matchesType(value: unknown, type: string): boolean {
  const actual = typeOf(value);
  if (type === 'number') return actual === 'number' || actual === 'integer';
  return actual === type;
}

function where(path: string): string {
  return path === '' ? 'arguments' : `'${path}'`;
}

function check(value: unknown, schema: Schema, path: string, errors: string[]): void {
  const type = schema['type'];
  if (typeof type === 'string' || Array.isArray(type)) {
    const types = (Array.isArray(type) ? type : [type]).filter((t): t is string => typeof t === 'string');
    if (types.length > 0 && !types.some((t) => matchesType(value, t))) {
      errors.push(`${where(path)} must be ${types.join(' or ')}, got ${typeOf(value)}`);
      return;
    }
  }
  const allowed = schema['enum'];
  if (Array.isArray(allowed) && !allowed.some((option) => JSON.stringify(option) === JSON.stringify(value))) {
    errors.push(`${where(path)} must be one of ${JSON.stringify(allowed)}`);
  }
  if ('const' in schema && JSON.stringify(schema['const']) !== JSON.stringify(value)) {
    errors.push(`${where(path)} must be ${JSON.stringify(schema['const'])}`);
  }
  if (isObject(value)) checkObject(value, schema, path, errors);
  if (Array.isArray(value) && isObject(schema['items'])) {
    const items = schema['items'];
    value.forEach((item, i) => check(item, items, `${path}[${i}]`, errors));
  }
}

function checkObject(value: Record<string, unknown>, schema: Schema, path: string, errors: string[]): void {
  const properties = isObject(schema['properties']) ? schema['properties'] : {};
  const prefix = path === '' ? '' : `${path}.`;
  const required = Array.isArray(schema['required']) ? schema['required'] : [];
  for (const key of required) {
    if (typeof key === 'string' && !Object.prototype.hasOwnProperty.call(value, key)) {
      errors.push(`missing required property '${prefix}${key}'`);
    }
  }
  const extra = schema['additionalProperties'];
  for (const key of Object.keys(value)) {
    const sub = Object.prototype.hasOwnProperty.call(properties, key) ? properties[key] : undefined;
    if (isObject(sub)) check(value[key], sub, `${prefix}${key}`, errors);
    else if (sub === undefined && extra === false) errors.push(`unexpected property '${prefix}${key}'`);
    else if (sub === undefined && isObject(extra)) check(value[key], extra, `${prefix}${key}`, errors);
  }
}

/**
 * Checks parsed arguments against a tool's JSON Schema and returns the problems found (empty when
 * valid). Supported: `type` (one or a list; `integer` means a whole number), `enum`, `const`,
 * `properties`, `required`, `additionalProperties` (`false` or a schema) and `items`, recursively.
 * Other keywords (`anyOf`, `pattern`, `minimum` …) are not checked: the tool sees such values as sent.
 */
export function checkArguments(args: unknown, schema: Record<string, unknown>): string[] {
  const errors: string[] = [];
  check(args, schema, '', errors);
  return errors;
}

// ---- one tool call → one result ---------------------------------------------------------------

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

function errorText(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}

/** Options for {@link runToolCall}. */
export interface RunToolCallOptions {
  /** Aborts the call (the run was cancelled). */
  signal: AbortSignal;
  /** Asked after validation for tools with `needsApproval`; absent → every such call is denied. */
  approve?: ((call: ToolApprovalRequest) => Promise<boolean> | boolean) | undefined;
}

/** Thrown by {@link runToolCall} when its signal aborts; carries nothing the model should see. */
export class ToolCallAborted extends Error {
  override name = 'ToolCallAborted' as const;
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new ToolCallAborted('aborted'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new ToolCallAborted('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
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
  const problems = checkArguments(args, t.parameters);
  if (problems.length > 0) {
    return { content: `${t.name} error: invalid arguments: ${problems.join('; ')}`, ok: false };
  }

  const needs = typeof t.needsApproval === 'function' ? await abortable(Promise.resolve(t.needsApproval(args)), signal) : t.needsApproval === true;
  if (needs) {
    if (!options.approve) return { content: `${t.name} error: denied (no approve function is configured)`, ok: false };
    let approved: boolean;
    try {
      approved = await abortable(Promise.resolve(options.approve({ ...call })), signal);
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
