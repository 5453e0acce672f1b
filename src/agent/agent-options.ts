/**
 * The public types of `Agent`: its options, one run's and its wire output's, the model client it calls
 * (`AgentModel`: one request, the events it streams, the step it ends with) and the store it saves to.
 */
import type { PagentError } from '../errors.js';
import type { InterruptedTurn, TurnPiece } from '../store/turn-pieces.js';
import type { EncodeStreamOptions } from '../wire/encode-stream.js';
import type { ToolCall, Usage } from '../wire/events.js';
import type { Agent } from './agent.js';
import type { ChatMessage, ReasoningBlock, ToolSchema } from './messages.js';
import type { Session } from './sessions/session.js';
import type { ToolHooks } from './tools/hooks.js';
import type { Tool, ToolApprovalRequest } from './tools/tools.js';

/** One assembled model step, as the model client reports it at the end of a stream. */
export interface AgentModelStep {
  content: string;
  reasoning_content: string;
  tool_calls: ToolCall[];
  finish_reason: string | null;
  usage: Usage | null;
  /** Reasoning the model API needs back in the next request, kept on the assistant message (`reasoning_blocks`). */
  reasoning_blocks?: ReasoningBlock[] | undefined;
}

/** What a model client streams for one request: deltas, then exactly one step. */
export type AgentModelEvent =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  | { type: 'step'; step: AgentModelStep };

/** One model request as the agent makes it. */
export interface AgentModelRequest {
  messages: ChatMessage[];
  tools?: ToolSchema[];
  kwargs?: Record<string, unknown>;
  signal?: AbortSignal;
}

/**
 * The model client the agent drives. `LLM` (and every preset) is one; anything with the same
 * `stream()` works. `stream()` throws a `PagentError` on failure and the signal's reason when aborted.
 */
export interface AgentModel {
  stream(request: AgentModelRequest): AsyncIterable<AgentModelEvent>;
  /**
   * Optional: removes the client's secrets (its API key) from a text. The agent passes the user's input,
   * tool results and faults, and error messages through it before it emits, stores or sends them (`LLM`
   * has it and redacts its own output itself).
   */
  redact?(text: string): string;
}

/**
 * The part of a session store the agent uses (`createSessionStore()` fits). `append` saves each turn;
 * `save`, when present, rewrites the whole conversation after the stored copy vanished
 * (`StoreError{reason: "deleted"}`), so nothing is lost.
 */
export interface AgentStore {
  /** `seqs` (the store's number of each message, as `createSessionStore()` gives) lets {@link Agent.rewind} branch. */
  load(id: string): Promise<{ readonly messages: readonly ChatMessage[]; readonly seqs?: readonly number[] } | undefined>;
  /** `parent`: the seq the messages follow; a `{ from }` result gives their seqs. */
  append(id: string, messages: ChatMessage[], options?: { parent?: number | null }): Promise<unknown>;
  save?(id: string, session: Pick<Session, 'toJSON'>, options?: { title?: string }): Promise<unknown>;
  /**
   * Optional: saves pieces of the turn in flight as it streams (`createSessionStore()` has it), so a
   * reload, a crash or a closed tab keeps the partial answer; `at` 0 starts a turn afresh.
   */
  savePieces?(id: string, pieces: readonly TurnPiece[], at: number): Promise<unknown>;
  /** Optional: the turn a run left in flight, restored with the conversation (see {@link RunOptions.continue}). */
  loadTurn?(id: string): Promise<InterruptedTurn | undefined>;
  /** How often, at most, the turn in flight is saved, in milliseconds. @defaultValue 250 */
  readonly inFlightSaveMs?: number;
}

/** Options of {@link Agent}. */
export interface AgentOptions {
  /** The model client (an `LLM` or a preset). */
  llm: AgentModel;
  /**
   * The conversation. Each run appends the user input, the assistant messages and the tool results.
   * @defaultValue a new `Session()` without a system prompt
   */
  session?: Session;
  /** Tools the model may call (names must be unique). */
  tools?: readonly Tool<never>[];
  /**
   * Model calls per run; when the last one still asks for tools, those run and the run ends with
   * `stop_reason: "max_turns"` (pagent's documented default is 8).
   * @defaultValue 8
   */
  maxTurns?: number;
  /**
   * Asked, after a call's `ToolCallBegin`, for every call to a tool with `needsApproval`. Resolving false
   * (or throwing) denies the call: `ToolResult{ok: false}`. A run's own `approve` option takes precedence.
   * Without either, every such call is denied.
   */
  approve?: (call: ToolApprovalRequest) => Promise<boolean> | boolean;
  /**
   * Executes the tool calls of one step concurrently. Events keep their order (`ToolCallBegin` then
   * `ToolResult`, call by call); a call to a tool with `needsApproval` starts only once approved.
   * @defaultValue false
   */
  parallelTools?: boolean;
  /**
   * Saves the conversation: restored before the first run when the session is empty, appended at every
   * turn end — in the background, so saving never holds back the event stream (`run()` resolves once the
   * run is saved; {@link Agent.whenSaved} waits for the queue). A failed save never fails the run; what
   * happens next depends on the `StoreError` reason:
   * - `deleted` / `not-found` (the stored copy vanished, e.g. the database was deleted): with a `save`
   *   method the next save rewrites the whole session, then appends resume; without one, saving stops.
   * - `unavailable`, `invalid`, `corrupt`: retrying cannot help, so saving stops for this `sessionId`
   *   (the unsaved messages are dropped, not retried every turn) until {@link Agent.useSession}.
   * - `quota`, `blocked` and errors that are not a `StoreError`: the messages stay queued and go with the
   *   next save (the queue holds only messages the store does not have yet).
   * Report failures with `onStoreError`.
   */
  store?: AgentStore;
  /** The store key of this conversation (required with `store`; {@link Agent.useSession} switches it). */
  sessionId?: string;
  /**
   * Called once for every save to `store` that fails (the `StoreError` itself, or a `PagentError` with
   * `code: "store"` wrapping another error), e.g. to tell the user their chat is no longer being saved.
   * A `deleted` append is reported even when the rewrite with `save` that follows it succeeds.
   * It cannot fail the run: what it throws is ignored. Without it, failed saves are silent.
   */
  onStoreError?: (error: PagentError) => void;
  /**
   * Hooks around every tool call (pagentv4's tool hooks): `before` hooks may deny a call or replace its
   * result without running it, `after` hooks may replace what it returned. See {@link ToolHooks}.
   * Without hooks (or with empty lists) a call costs what it costs without this option.
   */
  hooks?: ToolHooks;
}

/** Options of one run. */
export interface RunOptions {
  /** Cancels the run: it ends with `RunEnd{stop_reason: "cancelled"}` and no `RunError`. */
  signal?: AbortSignal;
  /** Forwarded to the provider with every model request of the run (`temperature`, `reasoning_effort` …). */
  kwargs?: Record<string, unknown>;
  /**
   * Asked for this run's calls to tools with `needsApproval`, instead of the agent's `approve` option
   * (the chat element passes one that shows approve / deny buttons on the tool card).
   * @defaultValue the agent's `approve` option
   */
  approve?: (call: ToolApprovalRequest) => Promise<boolean> | boolean;
  /**
   * Called when a message given to {@link Agent.steer} joins this run's conversation: right after
   * `RunBegin` or a `TurnEnd`, before the `TurnBegin` of the model call that reads it (the chat element
   * shows it in the timeline there).
   */
  onSteer?: (text: string) => void;
  /**
   * Finishes the turn a run of this conversation left in flight (the page was reloaded, crashed or closed
   * mid-answer; the store's saved pieces bring it back), instead of sending `input` (pass `''`): no user
   * message is added and `RunBegin.user_input` is `''`. An answer cut while it streamed is sent as the
   * request's last message (an assistant message with the text so far) for the model to continue, and the
   * run's first step streams that text before what the model adds, so the step, the events and the stored
   * message hold the whole answer. A turn cut during its tool calls goes on with them: results that came are
   * kept, a call that was waiting for approval is asked again, a call that was running gets
   * `error: interrupted before the tool finished`. Without an interrupted turn the model is simply asked
   * again from where the conversation stands. Any run without this option first stores the interrupted
   * turn as it stands (its calls without a result get that same error text), so the history stays valid.
   * @defaultValue false
   */
  continue?: boolean;
  /**
   * Re-runs a failed run: when the conversation's last user message is `input` and no answer followed it
   * (a failed run keeps its user message), that message is not appended a second time; the run continues
   * the conversation from where the failed one stopped. Otherwise the run is an ordinary one.
   * @defaultValue false
   */
  retry?: boolean;
}

/** Options of {@link Agent.wire}: the run's, plus the protocol to write. */
export interface WireOptions extends RunOptions, Partial<EncodeStreamOptions> {}
