/**
 * The options of {@link RemoteAgent}, of one of its runs and of its wire output: what the page gives a
 * remote back end (its URL, protocol, tools, handlers for approvals and questions, store and callbacks).
 */
import type { PagentError, WireDecodeError } from '../../errors.js';
import type { AgentStore, WireOptions } from '../agent.js';
import type { ToolHooks } from '../tools/hooks.js';
import type { Tool, ToolApprovalRequest } from '../tools/tools.js';
import type { RemoteInterrupt, RemoteProtocolName } from './protocol.js';

/** Asks the user for the answer to a back end's question; resolves `undefined` when the user dismissed it. */
export type RemoteInterruptHandler = (request: RemoteInterrupt, options: { signal: AbortSignal }) => unknown;

/** Options of {@link RemoteAgent}. */
export interface RemoteAgentOptions {
  /** The back end's endpoint: the AG-UI agent's URL, the AI SDK route (`/api/chat`), the pagent server's. */
  url: string | URL;
  /**
   * What the back end speaks: `'ag-ui'` (a `RunAgentInput` per request), `'ai-sdk'` (`useChat`'s
   * request of `UIMessage`s) or `'pagent'` (`{message, session_id}`; the server keeps the history).
   */
  protocol: RemoteProtocolName;
  /**
   * Tools of the page. AG-UI back ends are told about them in every request (`tools`); for the AI SDK
   * they run the calls the route leaves to the client (tools the route declares without `execute`).
   * A call runs in the browser when the back end leaves it without a result; with the same checks,
   * hooks and approvals as an `Agent`'s tools.
   */
  tools?: readonly Tool<never>[];
  /**
   * Asked for calls to page tools with `needsApproval`, and for the back end's approval requests (AI SDK
   * `tool-approval-request`, AG-UI interrupts with reason `tool_call` or `confirmation`). A run's own
   * `approve` takes precedence; without either, every approval is denied.
   */
  approve?: (call: ToolApprovalRequest) => Promise<boolean> | boolean;
  /**
   * Asked for the back end's other questions (AG-UI interrupts such as `input_required`, whose answer is
   * shaped by `responseSchema`); resolves the answer, or `undefined` to dismiss the question (sent as
   * `cancelled`). A run's own `interrupt` takes precedence; without either, questions are dismissed.
   */
  interrupt?: RemoteInterruptHandler;
  /** Saves the conversation, as an `Agent`'s `store` (restored before the first run, saved every turn). */
  store?: AgentStore;
  /**
   * The conversation id: the store key, the AG-UI `threadId` and the AI SDK chat `id`.
   * @defaultValue a new random id (required with `store`)
   */
  sessionId?: string;
  /** Called for every failed save to `store` (see `AgentOptions.onStoreError`). */
  onStoreError?: (error: PagentError) => void;
  /** Headers sent with every request (a function is called before each one, e.g. for a fresh token). */
  headers?: HeadersInit | (() => HeadersInit | Promise<HeadersInit>);
  /** The `fetch` to use. @defaultValue `globalThis.fetch` */
  fetch?: typeof globalThis.fetch;
  /** The AG-UI shared state the first run starts from. @defaultValue `{}` */
  state?: unknown;
  /**
   * The request body: an object is merged into every body (extra fields the back end reads, as the AI
   * SDK transport's `body`); a function gets the protocol's body and returns the one to send.
   */
  body?: Record<string, unknown> | ((body: Record<string, unknown>) => Record<string, unknown>);
  /** Hooks around every call of a page tool (see `AgentOptions.hooks`). */
  hooks?: ToolHooks;
  /**
   * Requests per run: the back end is asked again after the page ran its tools or answered its
   * questions; the run ends with `stop_reason: "max_turns"` when it would need more.
   * @defaultValue 8
   */
  maxRequests?: number;
  /** Called with the shared state each time the back end changes it (AG-UI `STATE_SNAPSHOT` / `STATE_DELTA`). */
  onState?: (state: unknown) => void;
  /** Called for each document of a response that could not be decoded or applied; the run goes on. */
  onDecodeError?: (error: WireDecodeError | PagentError) => void;
  /** A stall of a response (no bytes for this long) fails the run (`RunError{code: "timeout"}`). @defaultValue 0 (off) */
  idleTimeoutMs?: number;
}

/** Options of one run. */
export interface RemoteRunOptions {
  /** Cancels the run: it ends with `RunEnd{stop_reason: "cancelled"}`. */
  signal?: AbortSignal;
  /** Replaces the agent's `approve` for this run. */
  approve?: (call: ToolApprovalRequest) => Promise<boolean> | boolean;
  /** Replaces the agent's `interrupt` for this run. */
  interrupt?: RemoteInterruptHandler;
  /** Called when a steered message joins the run (see `RunOptions.onSteer`). */
  onSteer?: (text: string) => void;
  /** Re-runs a failed run or regenerates the last answer (see `RunOptions.retry`). */
  retry?: boolean;
  /**
   * Continues a turn a reload, crash or closed tab cut (see `RunOptions.continue`), instead of sending
   * `input` (pass `''`): the turn is added to the conversation as it stood (its text so far; its calls
   * without a result get `error: interrupted before the tool finished`), and the back end is asked again
   * with no new user message (AI SDK: `messageId` of that last message). What it sends is the next turn.
   * A pagent server keeps the history itself: it is sent the last user message again.
   */
  continue?: boolean;
  /** Called with the shared state each time the back end changes it, besides the agent's `onState`. */
  onState?: (state: unknown) => void;
  /** Called for each response document that could not be decoded or applied, besides the agent's. */
  onDecodeError?: (error: WireDecodeError | PagentError) => void;
}

/** Options of {@link RemoteAgent.wire}. */
export interface RemoteWireOptions extends RemoteRunOptions, Pick<WireOptions, 'dialect' | 'format'> {}
