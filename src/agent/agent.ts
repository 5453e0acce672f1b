/**
 * The in-browser agent loop: pagent's `Agent` over any OpenAI-compatible streaming model, emitting the
 * wire events of docs/wire.md#events in pagent's order.
 */
import { PagentError, errorMessage } from '../errors.js';
import { Conversation } from './sessions/conversation.js';
import { linkedAbort, runEndOf, textOf } from './run-results.js';
import { encodeStream } from '../wire/encode-stream.js';
import { failedRunEvents, type ParamsOf, type StepSummary, type StopReason, type WireEvent } from '../wire/events.js';
import type { ChatMessage, ToolSchema } from './messages.js';
import type { Session } from './sessions/session.js';
import { inputText, sendableMessages, type UserContentPart, type UserInput } from './content-parts.js';
import type { ToolHooks } from './tools/hooks.js';
import type { Tool, ToolApprovalRequest } from './tools/tools.js';
import type { ToolOutcome } from './tools/tool-call.js';
import { callTool, startEarly, type AgentTools, type EarlyCall } from './agent-tool-calls.js';
import { assistantMessage, commitPending, completeHalfTurn, endCancelled, endFailed, newRunState, type PendingTurn, type RunState } from './agent-turns.js';
import type { AgentModel, AgentModelEvent, AgentModelRequest, AgentModelStep, AgentOptions, AgentStore, RunOptions, WireOptions } from './agent-options.js';

export type { AgentModel, AgentModelEvent, AgentModelRequest, AgentModelStep, AgentOptions, AgentStore, RunOptions, WireOptions } from './agent-options.js';

type RunEndParams = ParamsOf<'RunEnd'>;

/**
 * Runs pagent's tool loop in the browser: each turn streams one model call (`TurnBegin`, deltas,
 * `StepEnd`), runs the step's tool calls in order (`ToolCallBegin`, `ToolResult`) and ends with
 * `TurnEnd`; the run ends with `RunEnd` carrying the last step. One run at a time per agent.
 *
 * Secrets: with a model client that can `redact` (an `LLM`), its API key is removed from everything the
 * agent emits or stores — the user's input, tool results and faults, error messages — and the `LLM`
 * removes it from the model's own output.
 *
 * Session rules: a cancelled run keeps its partial answer (an assistant message with the text so far)
 * and completes a half-finished tool turn with `error: cancelled …` results for calls that did not
 * finish; a failed model call keeps nothing of its turn. Either way the next request is valid.
 *
 * @example
 * const agent = new Agent({ llm: OpenAI('gpt-4o-mini', { apiKey }), session: new Session('Be brief.'), tools: [add] });
 * for await (const text of agent.text('What is 2+40?')) output.append(text);
 */
export class Agent {
  /** The model client. */
  readonly llm: AgentModel;
  /** Model calls per run. */
  readonly maxTurns: number;
  private readonly tools: ReadonlyMap<string, Tool<never>>;
  private readonly schemas: ToolSchema[];
  private readonly options: AgentOptions;
  private running = false;
  /** The conversation the runs continue, and its saving. */
  private readonly conversation: Conversation;
  private steers: string[] = [];
  private readonly hooks: ToolHooks | undefined;

  constructor(options: AgentOptions) {
    this.options = options;
    this.llm = options.llm;
    this.maxTurns = options.maxTurns ?? 8;
    if (!Number.isInteger(this.maxTurns) || this.maxTurns < 1) throw new RangeError('Agent: maxTurns must be an integer >= 1');
    const tools = new Map<string, Tool<never>>();
    for (const t of options.tools ?? []) {
      if (tools.has(t.name)) throw new TypeError(`Agent: duplicate tool name '${t.name}'`);
      tools.set(t.name, t);
    }
    this.tools = tools;
    this.schemas = [...tools.values()].map((t) => t.schema);
    const { hooks } = options;
    if (hooks && ((hooks.before?.length ?? 0) > 0 || (hooks.after?.length ?? 0) > 0)) this.hooks = hooks;
    this.conversation = new Conversation({ session: options.session, store: options.store, sessionId: options.sessionId, onStoreError: options.onStoreError, owner: 'Agent' });
  }

  /**
   * Steers the run in flight (pagentv4's `Runner.steer`): `text` becomes a user message sent before the
   * run's next model call — after the current tool round has completed, never between an assistant
   * `tool_calls` message and its results — and is saved with the conversation. When the model has just
   * given its final answer, the run goes on for one more model call so the message is answered (unless
   * `maxTurns` is reached). With no run going, the message waits for the next run and follows its input.
   * Text is trimmed; empty text is ignored. {@link Agent.useSession} drops messages still waiting.
   *
   * @example
   * agent.steer('Use metric units, please.');
   */
  steer(text: string): void {
    const trimmed = String(text).trim();
    if (trimmed !== '') this.steers.push(trimmed);
  }

  /** Messages given to {@link Agent.steer} that no run has sent yet. */
  get pendingSteers(): readonly string[] {
    return this.steers;
  }

  /** The conversation the runs append to (replaced by {@link Agent.useSession} when it is given one). */
  get session(): Session {
    return this.conversation.session;
  }

  /** The store key of the current conversation (the `sessionId` option until {@link Agent.useSession} changes it). */
  get sessionId(): string | undefined {
    return this.conversation.sessionId;
  }

  /**
   * Switches to another conversation: the next run continues `sessionId` instead of the current one.
   * The in-memory history is cleared (the session keeps its system prompt and kind) or replaced by
   * `session`; with a `store`, the next run first restores the stored messages of `sessionId` (when the
   * session is empty) and appends its own to them. Pass a new id to start a fresh conversation.
   * Messages the store failed to save for the previous id are retried once for that id, in the background
   * (the whole conversation with `save` when the stored copy was deleted); a failure goes to `onStoreError`.
   * Saving resumes for the new id even if it had stopped for the previous one.
   *
   * @example
   * agent.useSession(crypto.randomUUID()); // "New conversation"
   * agent.useSession(storedId);            // continue a stored one on the next run
   *
   * @throws {PagentError} `code: "busy"` while a run is in flight (stop it and let it end first).
   * @throws {TypeError} when the agent has a `store` and `sessionId` is undefined.
   */
  useSession(sessionId: string | undefined, session?: Session): void {
    if (this.running) throw new PagentError('Agent is running: cannot switch sessions until the run ends', { code: 'busy', where: 'agent' });
    this.conversation.use(sessionId, session);
    this.steers = [];
  }

  /**
   * Keeps the first `count` messages of the conversation (restored from the store first, when it has not
   * been yet) and forgets the rest: the next run continues from there, and with a `store` its messages are
   * saved as a new branch beside the old ones, which stay stored. Regenerating the last answer is
   * `rewind(i + 1)` then a `retry` run of user message `i`; editing user message `i` is `rewind(i)` then a
   * run of the new text.
   *
   * @throws {PagentError} `code: "busy"` while a run is in flight; the restore's error when it fails.
   */
  async rewind(count: number): Promise<void> {
    if (this.running) throw new PagentError('Agent is running: cannot rewind until the run ends', { code: 'busy', where: 'agent' });
    await this.conversation.rewind(count);
  }

  /**
   * Runs the agent and resolves with the `RunEnd` params (pagent's `run()`) once the run's turns are saved
   * (or their save failed); a cancelled run resolves too (`stop_reason: "cancelled"`).
   *
   * @throws {PagentError} when the run fails (the `RunError`'s code, message, where and status).
   */
  run(input: UserInput, options: RunOptions = {}): Promise<RunEndParams> {
    return runEndOf(this.events(input, options), () => this.whenSaved(), 'agent');
  }

  /**
   * Yields the answer's text deltas (pagent's `arun()`).
   *
   * @throws {PagentError} after the last delta when the run fails.
   */
  text(input: UserInput, options: RunOptions = {}): AsyncGenerator<string, void, undefined> {
    return textOf(this.events(input, options), () => this.whenSaved());
  }

  /**
   * Yields the run as wire text: by default pagent's NDJSON lines, each ending in `\n` (pagent's
   * `arun_wire()`); with `dialect: 'ag-ui'` or `'ai-sdk'` the stream an AG-UI client or an AI SDK
   * `useChat` front end reads (SSE messages by default; `format` can force one). See `encodeStream`, and
   * `encodeStreamHeaders` for the response headers. Breaking out of the loop cancels the run.
   */
  async *wire(input: UserInput, options: WireOptions = {}): AsyncGenerator<string, void, undefined> {
    const { dialect = 'pagent', format, ...runOptions } = options;
    yield* encodeStream(this.events(input, runOptions), { dialect, format });
  }

  /**
   * Yields the run's events (pagent's `arun_events()`): `RunBegin`, per turn `TurnBegin`, deltas, one
   * `StepEnd`, `ToolCallBegin`/`ToolResult` per call, `TurnEnd`, … and always one `RunEnd` last. A failure
   * is `RunError` then `TurnEnd{stop_reason: "error"}` and `RunEnd{stop_reason: "error"}`; a cancel is
   * `TurnEnd{stop_reason: "cancelled"}` (when a turn is open) and `RunEnd{stop_reason: "cancelled"}`.
   * Breaking out of the loop cancels the run.
   *
   * @throws {PagentError} `code: "busy"` when this agent is already running.
   */
  async *events(input: UserInput, options: RunOptions = {}): AsyncGenerator<WireEvent, void, undefined> {
    if (this.running) throw new PagentError('Agent is already running', { code: 'busy', where: 'agent' });
    this.running = true;
    const abort = linkedAbort(options.signal);
    const run = newRunState(this.conversation);
    try {
      for await (const event of this.loop(input, options, abort.signal, run)) {
        this.conversation.observe(event);
        yield event;
      }
    } finally {
      abort.release();
      if (!run.ended) {
        completeHalfTurn(run);
        this.queueSave();
      }
      this.conversation.ended();
      this.running = false;
    }
  }

  private async *loop(rawInput: UserInput, options: RunOptions, signal: AbortSignal, run: RunState): AsyncGenerator<WireEvent, void, undefined> {
    const { kwargs, onSteer } = options;
    const retry = options.retry === true;
    const continuing = options.continue === true;
    const restoreError = await this.conversation.restore();
    // (after the restore: the saver that records approvals asked is loaded by then)
    const approve = this.conversation.asking(options.approve ?? this.options.approve);
    const tools: AgentTools = { tools: this.tools, hooks: this.hooks };
    if (restoreError) {
      run.ended = true;
      const error = { message: this.redact(restoreError.message), code: restoreError.code, where: 'store' };
      yield* failedRunEvents(error, this.redact(inputText(rawInput)));
      return;
    }
    const carried = this.conversation.carry(continuing);
    const resumed = carried && (await import('./sessions/continue-turn.js')).continueTurn(this.llm, carried);
    const llm = resumed?.llm ?? this.llm;
    const input = continuing ? '' : this.redactInput(rawInput);
    if (!continuing && !(retry && this.conversation.awaitsAnswer(input))) this.add({ role: 'user', content: input });
    yield { method: 'RunBegin', params: { user_input: inputText(input) } };

    for (let turn = 0; turn < this.maxTurns; turn++) {
      if (signal.aborted) return yield* endCancelled(run);
      if (this.steers.length > 0) this.applySteers(onSteer);
      run.turn = turn;
      run.turnOpen = true;
      run.partialText = '';
      run.partialReasoning = '';
      yield { method: 'TurnBegin', params: { turn } };

      let step: AgentModelStep | undefined;
      try {
        run.streaming = true;
        const messages = await sendableMessages(await this.session.requestMessages({ signal }));
        const request: AgentModelRequest = { messages, signal };
        if (this.schemas.length > 0) request.tools = this.schemas;
        if (kwargs) request.kwargs = kwargs;
        for await (const event of llm.stream(request)) {
          if (event.type === 'text') {
            run.partialText += event.text;
            yield { method: 'TextDelta', params: { text: event.text } };
          } else if (event.type === 'reasoning') {
            run.partialReasoning += event.text;
            yield { method: 'ReasoningDelta', params: { text: event.text } };
          } else {
            step = event.step;
          }
        }
        if (signal.aborted) return yield* endCancelled(run);
        if (!step) throw new PagentError('The model stream ended without a complete step', { code: 'truncated', where: 'llm' });
        run.streaming = false;
      } catch (err) {
        if (signal.aborted) return yield* endCancelled(run);
        return yield* endFailed(run, err, (text) => this.redact(text));
      }

      const summary: StepSummary = {
        content: step.content,
        tool_calls: step.tool_calls,
        reasoning_content: step.reasoning_content,
        usage: step.usage,
      };
      run.lastStep = summary;
      yield { method: 'StepEnd', params: summary };

      if (step.tool_calls.length === 0) {
        const empty = step.content === '' && step.reasoning_content === '';
        if (!empty) this.add(assistantMessage(step));
        const reason: StopReason = empty ? 'empty_response' : 'no_tool_calls';
        this.queueSave();
        run.turnOpen = false;
        if (this.steers.length > 0 && turn + 1 < this.maxTurns) {
          // a steered message came in during the final answer: one more model call answers it
          yield { method: 'TurnEnd', params: { turn, stopped: false, stop_reason: 'continuing' } };
          continue;
        }
        yield { method: 'TurnEnd', params: { turn, stopped: true, stop_reason: reason } };
        run.ended = true;
        yield { method: 'RunEnd', params: { ...summary, stop_reason: reason, turn } };
        return;
      }

      const pending: PendingTurn = { assistant: assistantMessage(step), calls: step.tool_calls, results: new Map() };
      run.pending = pending;
      // the interrupted turn's calls that are not run again (a continued run's first turn)
      const known = turn === 0 ? resumed?.known : undefined;
      const early = this.options.parallelTools ? startEarly(tools, pending.calls, approve, signal, known) : new Map<string, EarlyCall>();
      for (const call of pending.calls) {
        const request: ToolApprovalRequest = { tool_call_id: call.id, name: call.function.name, arguments: call.function.arguments };
        yield { method: 'ToolCallBegin', params: { ...request } };
        const prestarted = early.get(call.id);
        const started = prestarted?.started ?? performance.now();
        let outcome: ToolOutcome;
        try {
          outcome = await (prestarted?.outcome ?? known?.(call.id) ?? callTool(tools, request, { signal, approve }));
        } catch (err) {
          // (a ToolCallAborted is only ever thrown once the signal has aborted)
          if (signal.aborted) return yield* endCancelled(run);
          outcome = { content: `${call.function.name} error: ${errorMessage(err)}`, ok: false };
        }
        if (signal.aborted) return yield* endCancelled(run);
        outcome = { ...outcome, content: this.redact(outcome.content) };
        pending.results.set(call.id, { role: 'tool', tool_call_id: call.id, content: outcome.content });
        yield {
          method: 'ToolResult',
          params: {
            tool_call_id: call.id,
            name: call.function.name,
            content: outcome.content,
            ok: outcome.ok,
            // the tool's own execution time: the wait for approval is not counted
            elapsed_ms: Math.round(outcome.elapsedMs ?? performance.now() - started),
          },
        };
      }
      commitPending(run);
      this.queueSave();
      run.turnOpen = false;
      if (turn + 1 >= this.maxTurns) {
        yield { method: 'TurnEnd', params: { turn, stopped: false, stop_reason: 'max_turns' } };
        run.ended = true;
        yield { method: 'RunEnd', params: { ...summary, stop_reason: 'max_turns', turn } };
        return;
      }
      yield { method: 'TurnEnd', params: { turn, stopped: false, stop_reason: 'continuing' } };
    }
  }

  /** Adds the steered messages to the conversation, in order, and tells the run's `onSteer`. */
  private applySteers(onSteer: RunOptions['onSteer']): void {
    const texts = this.steers;
    this.steers = [];
    for (const steered of texts) {
      const text = this.redact(steered);
      this.add({ role: 'user', content: text });
      try {
        onSteer?.(text);
      } catch {
        // the page's callback must not fail the run
      }
    }
  }

  /** The input as the user message carries it: a copy of the parts, their text parts and file names redacted. */
  private redactInput(input: UserInput): string | UserContentPart[] {
    if (typeof input === 'string') return this.redact(input);
    return input.map((part) =>
      part.type === 'text' ? { type: 'text', text: this.redact(part.text) } : part.type === 'file' ? { type: 'file', file: { ...part.file, filename: this.redact(part.file.filename) } } : part,
    );
  }

  /**
   * `text` without the model client's secrets (see {@link AgentModel.redact}); the text as it is when the
   * client cannot redact. `<pagent-chat>` shows the user's message and its file names through it.
   */
  redact(text: string): string {
    return this.llm.redact ? this.llm.redact(text) : text;
  }

  private add(message: ChatMessage): void {
    this.conversation.add(message);
  }

  /** Settles once every save queued so far has settled (saves run in the background, one at a time, in order). */
  async whenSaved(): Promise<void> {
    await this.conversation.whenSaved();
  }

  /** Saves what the runs added, in the background (see {@link SessionSaver.queue}). */
  private queueSave(): void {
    this.conversation.save();
  }
}
