/**
 * `RemoteAgent`: the `Agent` interface over a back end that runs the model — an AG-UI agent, an AI SDK
 * route or a pagent server. It keeps the conversation in the browser and sends it with every request in
 * the protocol's own format, runs the page's tools when the back end calls them, and asks the user when
 * the back end asks for an approval or an answer; its events are the common wire events, one run per
 * user input whatever the number of requests. See docs/guides/remote-agent.md.
 */
import { PagentError, type WireDecodeError, errorMessage } from '../../errors.js';
import { newId } from '../../new-id.js';
import { WireClient } from '../../wire/client.js';
import { encodeStream } from '../../wire/encode-stream.js';
import { failedRunEvents, type ParamsOf, type StopReason, type ToolCall, type UnknownEvent, type WireEvent } from '../../wire/events.js';
import type { AgentStore, WireOptions } from '../agent.js';
import { hasDataImage, inputText, sendableMessages, type UserContentPart, type UserInput } from '../content-parts.js';
import { Conversation } from '../sessions/conversation.js';
import { runEndOf, textOf } from '../run-results.js';
import type { ToolHooks } from '../tools/hooks.js';
import type { AssistantMessage, ChatMessage, ToolMessage } from '../messages.js';
import type { Session } from '../sessions/session.js';
import { checkArguments } from '../tools/tool-args.js';
import type { ToolOutcome } from '../tools/tool-call.js';
import type { Tool, ToolApprovalRequest } from '../tools/tools.js';
import { createPagentProtocol } from './pagent.js';
import type { RemoteAnswer, RemoteInterrupt, RemoteProtocol, RemoteProtocolName, RemoteResumption, RemoteToolInfo } from './protocol.js';

export type { RemoteInterrupt, RemoteAnswer, RemoteProtocolName } from './protocol.js';

type RunEndParams = ParamsOf<'RunEnd'>;

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

const CANCELLED_TOOL_TEXT = 'error: cancelled before the tool finished';
const NO_RESULT_TEXT = 'error: the back end gave no result for this call';

/** One run in flight: its turns as the events number them, and the open turn's pieces. */
interface RunState {
  turn: number;
  turnOpen: boolean;
  /** Added to a response's own turn numbers (each response counts its turns from 0). */
  offset: number;
  /** The next response's first turn continues the open one (the back end answers questions about its calls). */
  merge: boolean;
  /** The last `TurnEnd` of the response, held until it is known whether the run goes on. */
  held: ParamsOf<'TurnEnd'> | undefined;
  text: string;
  reasoning: string;
  calls: ToolCall[];
  results: Map<string, ToolMessage>;
  /** The last finished turn's text and reasoning (`RunEnd`'s). */
  lastText: string;
  lastReasoning: string;
  ended: boolean;
}

/**
 * The open turn as messages: the assistant message (text, reasoning, calls), then the result of each
 * call — `missing` for a call without one, or, with `missing` undefined, only the results there are.
 */
function turnMessages(run: RunState, missing: string | undefined): ChatMessage[] {
  const { text, reasoning, calls, results } = run;
  if (text === '' && reasoning === '' && calls.length === 0) return [];
  const assistant: AssistantMessage = { role: 'assistant', content: calls.length > 0 && text === '' ? null : text };
  if (calls.length > 0) assistant.tool_calls = calls;
  if (reasoning !== '') assistant.reasoning_content = reasoning;
  const out: ChatMessage[] = [assistant];
  for (const call of calls) {
    const result = results.get(call.id) ?? (missing === undefined ? undefined : { role: 'tool' as const, tool_call_id: call.id, content: missing });
    if (result) out.push(result);
  }
  return out;
}

let modules: Promise<[typeof import('../tools/tool-call.js'), typeof import('../tools/hooks.js')]> | undefined;
const loadToolModules = (): Promise<[typeof import('../tools/tool-call.js'), typeof import('../tools/hooks.js')]> =>
  (modules ??= Promise.all([import('../tools/tool-call.js'), import('../tools/hooks.js')]));

/** The protocol's module: AG-UI's and the AI SDK's are loaded on first use; pagent's few lines are at hand. */
function loadProtocol(name: RemoteProtocolName): Promise<RemoteProtocol> {
  if (name === 'ag-ui') return import('./ag-ui.js').then((m) => m.createAgUiProtocol());
  if (name === 'ai-sdk') return import('./ai-sdk.js').then((m) => m.createAiSdkProtocol());
  return Promise.resolve(createPagentProtocol());
}

/**
 * Holds a conversation with a remote back end: every run sends the whole conversation (AG-UI, AI SDK) or
 * the new message (pagent) and yields the response's events; calls the back end leaves to the page run
 * in the browser and the back end is asked again with their results, in the same run. Plug it into
 * `<pagent-chat>` as `agent` for history, the store, regenerate, edit and approvals.
 *
 * @example
 * const agent = new RemoteAgent({ url: '/api/chat', protocol: 'ai-sdk' });
 * for await (const text of agent.text('Hello')) output.append(text);
 */
export class RemoteAgent {
  /** The back end's URL. */
  readonly url: string;
  /** The protocol spoken. */
  readonly protocol: RemoteProtocolName;
  /** Requests per run. */
  readonly maxRequests: number;
  private readonly options: RemoteAgentOptions;
  private readonly tools: ReadonlyMap<string, Tool<never>>;
  private readonly toolInfo: RemoteToolInfo[];
  private readonly conversation: Conversation;
  private readonly protocolLoad: Promise<RemoteProtocol>;
  private running = false;
  private steers: string[] = [];
  private currentState: unknown;
  private serverSessionId: string | undefined;
  /** Calls whose result failed (`ok: false`): AG-UI and the AI SDK send them back as errors. */
  private readonly failedCalls = new Set<string>();
  /** The index the next user message takes after {@link RemoteAgent.rewind}: that message is an edit. */
  private rewoundTo: number | undefined;
  /** The resume endpoint's response, for the run {@link RemoteAgent.resume} starts. */
  private resuming: RemoteResumption | undefined;

  constructor(options: RemoteAgentOptions) {
    if (options.protocol !== 'ag-ui' && options.protocol !== 'ai-sdk' && options.protocol !== 'pagent') {
      throw new TypeError(`RemoteAgent: unknown protocol ${JSON.stringify(options.protocol)} (use 'ag-ui', 'ai-sdk' or 'pagent')`);
    }
    if (options.store && !options.sessionId) throw new TypeError('RemoteAgent: a store needs a sessionId');
    this.options = options;
    this.url = String(options.url);
    this.protocol = options.protocol;
    this.maxRequests = options.maxRequests ?? 8;
    if (!Number.isInteger(this.maxRequests) || this.maxRequests < 1) throw new RangeError('RemoteAgent: maxRequests must be an integer >= 1');
    const tools = new Map<string, Tool<never>>();
    for (const t of options.tools ?? []) {
      if (tools.has(t.name)) throw new TypeError(`RemoteAgent: duplicate tool name '${t.name}'`);
      tools.set(t.name, t);
    }
    this.tools = tools;
    this.toolInfo = [...tools.values()].map(({ schema: { function: f } }) => ({ name: f.name, description: f.description, parameters: f.parameters }));
    this.conversation = new Conversation({
      store: options.store,
      sessionId: options.sessionId ?? newId(),
      onStoreError: options.onStoreError,
      owner: 'RemoteAgent',
    });
    this.currentState = options.state;
    this.protocolLoad = loadProtocol(options.protocol);
    // a failed load is reported by the first run
    this.protocolLoad.catch(() => undefined);
  }

  /** The conversation id (store key, AG-UI `threadId`, AI SDK chat `id`). */
  get sessionId(): string {
    return this.conversation.sessionId!;
  }

  /** The conversation so far, in OpenAI's message shape (what the store keeps). */
  get session(): Session {
    return this.conversation.session;
  }

  /** The AG-UI shared state as the back end last left it (sent back with every request). */
  get state(): unknown {
    return this.currentState;
  }

  set state(state: unknown) {
    this.currentState = state;
  }

  /** Messages given to {@link RemoteAgent.steer} that no request has carried yet. */
  get pendingSteers(): readonly string[] {
    return this.steers;
  }

  /**
   * Sends `text` as a user message with the run's next request — after the page answered the back end's
   * calls, or in one more request when the answer has just ended — or with the next run when none is
   * going (see `Agent.steer`).
   */
  steer(text: string): void {
    const trimmed = String(text).trim();
    if (trimmed !== '') this.steers.push(trimmed);
  }

  /**
   * Switches to another conversation (see `Agent.useSession`): the history, the shared state (back to the
   * `state` option) and what the protocol held for the last conversation are dropped.
   *
   * @throws {PagentError} `code: "busy"` while a run is in flight.
   */
  useSession(sessionId: string | undefined, session?: Session): void {
    if (this.running) throw new PagentError('RemoteAgent is running: cannot switch conversations until the run ends', { code: 'busy', where: 'agent' });
    this.conversation.use(sessionId ?? newId(), session);
    this.steers = [];
    this.currentState = this.options.state;
    this.serverSessionId = undefined;
    this.failedCalls.clear();
    this.rewoundTo = undefined;
    void this.protocolLoad.then((p) => p.reset(), () => undefined);
  }

  /**
   * Keeps the first `count` messages (see `Agent.rewind`): the next run sends the conversation from
   * there — a regenerated answer (`retry`) or an edited message.
   *
   * @throws {PagentError} `code: "busy"` while a run is in flight.
   */
  async rewind(count: number): Promise<void> {
    if (this.running) throw new PagentError('RemoteAgent is running: cannot rewind until the run ends', { code: 'busy', where: 'agent' });
    await this.conversation.rewind(count);
    this.rewoundTo = this.conversation.session.messages.length;
  }

  /** Settles once the conversation's saves have landed. */
  whenSaved(): Promise<void> {
    return this.conversation.whenSaved();
  }

  /**
   * Runs one user input and resolves with the `RunEnd` params once saved; a cancelled run resolves too.
   *
   * @throws {PagentError} when the run fails (the `RunError`'s code, message and status).
   */
  run(input: UserInput, options: RemoteRunOptions = {}): Promise<RunEndParams> {
    return runEndOf(this.events(input, options), () => this.whenSaved(), 'remote');
  }

  /** Yields the answer's text deltas. @throws {PagentError} after the last delta when the run fails. */
  text(input: UserInput, options: RemoteRunOptions = {}): AsyncGenerator<string, void, undefined> {
    return textOf(this.events(input, options), () => this.whenSaved());
  }

  /** Yields the run as wire text (pagent NDJSON by default; `dialect: 'ag-ui' | 'ai-sdk'` as `Agent.wire`). */
  async *wire(input: UserInput, options: RemoteWireOptions = {}): AsyncGenerator<string, void, undefined> {
    const { dialect = 'pagent', format, ...runOptions } = options;
    yield* encodeStream(this.events(input, runOptions), { dialect, format });
  }

  /**
   * Yields the run's events: `RunBegin`, then each response's turns (numbered across the run's
   * requests), the page's tool results, and one `RunEnd` last. Breaking out of the loop cancels the run.
   *
   * @throws {PagentError} `code: "busy"` when this agent is already running.
   */
  async *events(input: UserInput, options: RemoteRunOptions = {}): AsyncGenerator<WireEvent, void, undefined> {
    if (this.running) throw new PagentError('RemoteAgent is already running', { code: 'busy', where: 'agent' });
    this.running = true;
    const controller = new AbortController();
    const outer = options.signal;
    const onAbort = (): void => controller.abort(outer?.reason);
    if (outer?.aborted) controller.abort(outer.reason);
    else outer?.addEventListener('abort', onAbort, { once: true });
    const run: RunState = {
      turn: 0,
      turnOpen: false,
      offset: 0,
      merge: false,
      held: undefined,
      text: '',
      reasoning: '',
      calls: [],
      results: new Map(),
      lastText: '',
      lastReasoning: '',
      ended: false,
    };
    try {
      for await (const event of this.loop(input, options, controller.signal, run)) {
        this.conversation.observe(event);
        yield event;
      }
    } finally {
      outer?.removeEventListener('abort', onAbort);
      controller.abort();
      if (!run.ended) {
        this.commitTurn(run, CANCELLED_TOOL_TEXT);
        this.conversation.save();
      }
      this.conversation.ended();
      this.running = false;
    }
  }

  /**
   * Resumes the run that was in flight when the page went (AI SDK back ends that keep their streams
   * resumable, as `useChat({resume: true})` expects): asks `GET {url}/{id}/stream` and, unless the back
   * end answers 204 (or 404: no resume endpoint) — nothing to resume, nothing is yielded — yields that
   * response's run from its start (the back end replays it) and goes on as `events()` does: the turn a
   * reload cut is replaced by what the stream says, the page's tools run, and the conversation is saved.
   * Other protocols have nothing to resume.
   *
   * @throws {PagentError} `code: "busy"` when this agent is already running.
   */
  async *resume(options: Omit<RemoteRunOptions, 'retry' | 'continue'> = {}): AsyncGenerator<WireEvent, void, undefined> {
    if (this.running) throw new PagentError('RemoteAgent is already running', { code: 'busy', where: 'agent' });
    const protocol = await this.protocolLoad;
    const given = this.options.headers;
    const headers = typeof given === 'function' ? await given() : given;
    this.resuming = await protocol.resume?.(this.url, this.sessionId, { headers, signal: options.signal }, this.options.fetch ?? globalThis.fetch);
    if (this.resuming) yield* this.events('', options);
  }

  private async *loop(input: UserInput, options: RemoteRunOptions, signal: AbortSignal, run: RunState): AsyncGenerator<WireEvent, void, undefined> {
    const userInput = typeof input === 'string' ? input : input.map((part): UserContentPart => ({ ...part }));
    let protocol: RemoteProtocol;
    try {
      const failed = await this.conversation.restore();
      if (failed) throw failed;
      protocol = await this.protocolLoad;
    } catch (err) {
      run.ended = true;
      const error = err instanceof PagentError ? err : new PagentError(`RemoteAgent could not start: ${errorMessage(err)}`, { code: 'network', where: 'remote', cause: err });
      yield* failedRunEvents({ message: error.message, code: error.code, where: error.where ?? 'remote' }, inputText(userInput));
      return;
    }
    const resumed = this.resuming;
    this.resuming = undefined;
    const continuing = resumed !== undefined || options.continue === true;
    // the turn a reload cut: a resumed stream replays it, a continuing run goes on from it as it stood
    // (shown first), any other run stores it as it stood first
    const cut = this.conversation.carry(continuing);
    const settled = cut && !resumed ? this.conversation.settle(cut) : [];
    const retry = options.retry === true && this.conversation.awaitsAnswer(userInput);
    const edited = this.rewoundTo;
    this.rewoundTo = undefined;
    if (!retry && !continuing) this.conversation.add({ role: 'user', content: userInput });
    yield { method: 'RunBegin', params: { user_input: continuing ? '' : inputText(userInput) } };
    if (settled.length > 0) {
      yield* settled;
      run.offset = 1;
    }

    let trigger: 'submit' | 'regenerate' | 'continue' = continuing ? 'continue' : retry ? 'regenerate' : 'submit';
    for (let request = 0; ; request++) {
      if (signal.aborted) return yield* this.endCancelled(run);
      if (this.steers.length > 0) this.applySteers(options.onSteer);
      const questions: RemoteInterrupt[] = [];
      let snapshot: ChatMessage[] | undefined;
      let end: RunEndParams | undefined;
      let failure = false;
      const onDecodeError = (error: WireDecodeError | PagentError): void => {
        for (const report of [this.options.onDecodeError, options.onDecodeError]) {
          try {
            report?.(error);
          } catch {
            // the page's callback must not fail the run
          }
        }
      };
      const sink = {
        state: (state: unknown): void => {
          this.currentState = state;
          for (const report of [this.options.onState, options.onState]) {
            try {
              report?.(state);
            } catch {
              // as above
            }
          }
        },
        problem: (message: string): void => onDecodeError(new PagentError(message, { code: 'decode', where: 'remote' })),
        messages: (messages: ChatMessage[]): void => void (snapshot = messages),
        ask: (question: RemoteInterrupt): void => void questions.push(question),
      };
      const replay = request === 0 ? resumed : undefined;
      const client = new WireClient<true>(replay?.url ?? this.url, {
        method: replay ? 'GET' : 'POST',
        fetch: replay ? () => replay.response : this.options.fetch,
        dialect: protocol.dialect,
        includeUnknown: true,
        idleTimeoutMs: this.options.idleTimeoutMs,
        onDecodeError,
        onLine: protocol.line?.bind(protocol),
      });
      let body: Record<string, unknown>;
      let headers: HeadersInit | undefined;
      try {
        const history = this.conversation.session.messages;
        // only a request that carries a data: image waits for the check of its bytes
        const sent = hasDataImage(history) ? await sendableMessages(history) : history;
        body = this.requestBody(protocol, run, sent, trigger, trigger === 'submit' ? edited : undefined);
        const given = this.options.headers;
        headers = typeof given === 'function' ? await given() : given;
      } catch (err) {
        return yield* this.endFailed(run, new PagentError(`RemoteAgent could not build the request: ${errorMessage(err)}`, { code: 'provider', where: 'remote', cause: err }));
      }

      for await (const event of client.stream(replay ? undefined : body, { signal, headers })) {
        if ('unknown' in event) {
          protocol.observe(event as UnknownEvent, sink);
          continue;
        }
        if (run.held && event.method !== 'RunEnd') yield* this.releaseTurnEnd(run);
        switch (event.method) {
          case 'RunBegin':
            continue;
          case 'TurnBegin':
            if (run.merge && event.params.turn === 0) {
              run.merge = false;
              continue;
            }
            run.merge = false;
            run.turn = run.offset + event.params.turn;
            run.turnOpen = true;
            yield { method: 'TurnBegin', params: { turn: run.turn } };
            continue;
          case 'TurnEnd':
            run.held = event.params;
            continue;
          case 'RunEnd':
            end = event.params;
            continue;
          case 'RunError':
            failure = true;
            yield event;
            continue;
          case 'TextDelta':
            run.text += event.params.text;
            yield event;
            continue;
          case 'ReasoningDelta':
            run.reasoning += event.params.text;
            yield event;
            continue;
          case 'ToolCallBegin':
            run.calls.push({ id: event.params.tool_call_id, type: 'function', function: { name: event.params.name, arguments: event.params.arguments } });
            yield event;
            continue;
          case 'ToolResult':
            yield this.recordResult(run, event.params);
            continue;
          default:
            yield event;
        }
      }
      if (client.sessionId !== undefined) this.serverSessionId = client.sessionId;

      if (signal.aborted || end?.stop_reason === 'cancelled') return yield* this.endCancelled(run);
      if (failure || !end || end.stop_reason === 'error') {
        if (!failure) {
          yield { method: 'RunError', params: { message: `The back end's response ended without finishing the run: POST ${this.url}`, code: 'truncated', where: 'remote' } };
        }
        return yield* this.endFailed(run);
      }

      // What the back end left to the page: its questions, and calls without a result.
      const asked = new Set(questions.flatMap((q) => (q.toolCallId === undefined ? [] : [q.toolCallId])));
      const open = run.calls.filter((call) => !run.results.has(call.id) && !asked.has(call.id));
      let answeredCalls = 0;
      for (const question of questions) {
        if (question.expiresAt !== undefined && Date.parse(question.expiresAt) <= Date.now()) {
          yield { method: 'RunError', params: { message: `The back end's question expired at ${question.expiresAt}; it is cancelled with the next message`, code: 'provider', where: 'remote' } };
          return yield* this.endFailed(run);
        }
        const outcome = yield* this.ask(question, run, options, signal);
        if (signal.aborted) return yield* this.endCancelled(run);
        protocol.answer(question, outcome);
        if (question.toolCallId !== undefined && run.calls.some((call) => call.id === question.toolCallId)) answeredCalls++;
      }
      for (const call of open) {
        const outcome = await this.callPageTool(call, options, signal);
        if (signal.aborted || !outcome) return yield* this.endCancelled(run);
        yield this.recordResult(run, { tool_call_id: call.id, name: call.function.name, content: outcome.content, ok: outcome.ok, elapsed_ms: Math.round(outcome.elapsedMs ?? 0) });
      }
      const goesOn = questions.length > 0 || open.length > 0 || this.steers.length > 0;
      if (!goesOn || request + 1 >= this.maxRequests) {
        return yield* this.endFinished(run, goesOn ? 'max_turns' : (run.held?.stop_reason ?? end.stop_reason ?? 'no_tool_calls'), snapshot);
      }
      run.held = undefined;
      if (answeredCalls > 0) {
        // the back end answers the questions about its calls first: the next response continues this turn
        run.merge = true;
        run.offset = run.turn;
      } else {
        if (run.turnOpen) {
          this.commitTurn(run, NO_RESULT_TEXT);
          run.turnOpen = false;
          yield { method: 'TurnEnd', params: { turn: run.turn, stopped: false, stop_reason: 'continuing' } };
        }
        run.offset = run.turn + 1;
        this.applySnapshot(run, snapshot);
      }
      this.conversation.save();
      trigger = 'continue';
    }
  }

  /**
   * The body of the next request (`history`: the conversation as it may be sent): the protocol's, with
   * the page's `body` option applied. A turn still open (its calls wait for the back end's answer to the
   * questions about them) goes with it as it stands; it joins the conversation once those calls have
   * their results.
   */
  private requestBody(
    protocol: RemoteProtocol,
    run: RunState,
    history: readonly ChatMessage[],
    trigger: 'submit' | 'regenerate' | 'continue',
    edited: number | undefined,
  ): Record<string, unknown> {
    const body = protocol.body({
      threadId: this.sessionId,
      runId: newId(),
      messages: run.merge ? [...history, ...turnMessages(run, undefined)] : history,
      tools: this.toolInfo,
      state: this.currentState,
      trigger,
      edited,
      serverSessionId: this.serverSessionId,
      failedCalls: this.failedCalls,
    });
    const extra = this.options.body;
    return typeof extra === 'function' ? extra(body) : extra ? { ...extra, ...body } : body;
  }

  /** Records a tool result of the open turn (its name filled in from the call when the stream had none). */
  private recordResult(run: RunState, params: ParamsOf<'ToolResult'>): WireEvent {
    const call = run.calls.find((c) => c.id === params.tool_call_id);
    const result = call && params.name === '' ? { ...params, name: call.function.name } : params;
    if (call) {
      run.results.set(call.id, { role: 'tool', tool_call_id: call.id, content: result.content });
      if (result.ok === false) this.failedCalls.add(call.id);
    }
    return { method: 'ToolResult', params: result };
  }

  /** Ends the open turn with `TurnEnd{continuing}` when the response went on after it. */
  private *releaseTurnEnd(run: RunState): Generator<WireEvent, void, undefined> {
    const held = run.held!;
    run.held = undefined;
    if (!run.turnOpen) return;
    this.commitTurn(run, NO_RESULT_TEXT);
    run.turnOpen = false;
    yield { method: 'TurnEnd', params: { turn: run.turn, stopped: held.stopped, stop_reason: held.stop_reason ?? 'continuing' } };
  }

  /**
   * Adds the open turn to the conversation: the assistant message (text, reasoning, calls) and a result
   * for each call — `missing` for a call without one, so the history stays valid for the next request.
   */
  private commitTurn(run: RunState, missing: string): void {
    for (const message of turnMessages(run, missing)) this.conversation.add(message);
    run.lastText = run.text;
    run.lastReasoning = run.reasoning;
    run.text = '';
    run.reasoning = '';
    run.calls = [];
    run.results = new Map();
  }

  /** A `MESSAGES_SNAPSHOT` replaces the conversation when it differs from it (no turn may be open). */
  private applySnapshot(run: RunState, snapshot: ChatMessage[] | undefined): void {
    if (!snapshot || run.calls.length > 0 || run.text !== '' || run.reasoning !== '') return;
    if (JSON.stringify(snapshot) !== JSON.stringify(this.conversation.session.messages)) this.conversation.replace(snapshot);
  }

  /**
   * Asks the user a question of the back end: approvals through `approve` (a confirmation shows as a
   * call of its own, `confirmation`, so the approve / deny controls have a card), anything else through
   * `interrupt`. A failure or no handler dismisses it.
   */
  private async *ask(question: RemoteInterrupt, run: RunState, options: RemoteRunOptions, signal: AbortSignal): AsyncGenerator<WireEvent, RemoteAnswer, undefined> {
    const approve = options.approve ?? this.options.approve;
    const call = question.toolCallId === undefined ? undefined : this.findCall(run, question.toolCallId);
    if (question.reason === 'tool_call' && call) {
      const approved = await this.approval(approve, { tool_call_id: call.id, name: call.function.name, arguments: call.function.arguments }, signal);
      return { status: 'resolved', payload: { approved } };
    }
    if (question.reason === 'confirmation') {
      const card: ToolApprovalRequest = { tool_call_id: question.id, name: 'confirmation', arguments: JSON.stringify({ message: question.message ?? '' }) };
      yield { method: 'ToolCallBegin', params: { ...card } };
      const approved = await this.approval(approve, card, signal);
      if (signal.aborted) return { status: 'cancelled' };
      yield { method: 'ToolResult', params: { tool_call_id: question.id, name: 'confirmation', content: approved ? 'approved' : 'denied by the user', ok: approved } };
      const schema = question.responseSchema;
      const properties = schema?.['properties'];
      const wantsObject = typeof properties === 'object' && properties !== null && 'approved' in properties;
      return { status: 'resolved', payload: wantsObject ? { approved } : approved };
    }
    const handler = options.interrupt ?? this.options.interrupt;
    if (!handler) return { status: 'cancelled' };
    try {
      const payload: unknown = await handler(question, { signal });
      return payload === undefined ? { status: 'cancelled' } : { status: 'resolved', payload };
    } catch {
      return { status: 'cancelled' };
    }
  }

  /** A call of the run by id: one of the open turn, else one the conversation holds. */
  private findCall(run: RunState, id: string): ToolCall | undefined {
    const open = run.calls.find((c) => c.id === id);
    if (open) return open;
    for (const message of this.conversation.session.messages) {
      const found = message.role === 'assistant' ? message.tool_calls?.find((c) => c.id === id) : undefined;
      if (found) return found;
    }
    return undefined;
  }

  /** The user's decision on an approval; false when refused, failed or cancelled. */
  private async approval(approve: RemoteRunOptions['approve'], call: ToolApprovalRequest, signal: AbortSignal): Promise<boolean> {
    if (!approve) return false;
    try {
      const [m] = await loadToolModules();
      return (await m.abortable(approve({ ...call }), signal)) === true;
    } catch {
      return false;
    }
  }

  /** Runs a call the back end left open: a page tool (hooks, checks, approval) or pagent's unknown-tool fault. */
  private async callPageTool(call: ToolCall, options: RemoteRunOptions, signal: AbortSignal): Promise<ToolOutcome | undefined> {
    const [m, h] = await loadToolModules();
    const request: ToolApprovalRequest = { tool_call_id: call.id, name: call.function.name, arguments: call.function.arguments };
    const approve = options.approve ?? this.options.approve;
    const runIt = (): Promise<ToolOutcome> => m.runToolCall(this.tools, request, { signal, approve, check: checkArguments });
    const hooks = this.options.hooks;
    try {
      const outcome = hooks && this.tools.has(call.function.name) ? await h.runHookedToolCall(request, signal, hooks, runIt) : await runIt();
      return signal.aborted ? undefined : outcome;
    } catch (err) {
      if (signal.aborted) return undefined;
      return { content: `${call.function.name} error: ${errorMessage(err)}`, ok: false };
    }
  }

  /** Adds the steered messages to the conversation, in order, and tells the run's `onSteer`. */
  private applySteers(onSteer: RemoteRunOptions['onSteer']): void {
    const texts = this.steers;
    this.steers = [];
    for (const text of texts) {
      this.conversation.add({ role: 'user', content: text });
      try {
        onSteer?.(text);
      } catch {
        // the page's callback must not fail the run
      }
    }
  }

  private *endFinished(run: RunState, stopReason: StopReason, snapshot: ChatMessage[] | undefined): Generator<WireEvent, void, undefined> {
    this.commitTurn(run, NO_RESULT_TEXT);
    this.applySnapshot(run, snapshot);
    this.conversation.save();
    if (run.turnOpen) {
      run.turnOpen = false;
      yield { method: 'TurnEnd', params: { turn: run.turn, stopped: true, stop_reason: stopReason } };
    }
    run.held = undefined;
    run.ended = true;
    yield { method: 'RunEnd', params: { content: run.lastText, tool_calls: [], reasoning_content: run.lastReasoning, usage: null, stop_reason: stopReason, turn: run.turn } };
  }

  private *endCancelled(run: RunState): Generator<WireEvent, void, undefined> {
    this.commitTurn(run, CANCELLED_TOOL_TEXT);
    this.conversation.save();
    if (run.turnOpen) {
      run.turnOpen = false;
      yield { method: 'TurnEnd', params: { turn: run.turn, stopped: true, stop_reason: 'cancelled' } };
    }
    run.held = undefined;
    run.ended = true;
    yield { method: 'RunEnd', params: { content: run.lastText, tool_calls: [], reasoning_content: run.lastReasoning, usage: null, stop_reason: 'cancelled', turn: run.turn } };
  }

  /** Ends a failed run (its `RunError` already yielded, unless `error` is given): the open turn is dropped. */
  private *endFailed(run: RunState, error?: PagentError): Generator<WireEvent, void, undefined> {
    if (error) yield { method: 'RunError', params: { message: error.message, code: error.code, where: error.where ?? 'remote' } };
    const content = run.text;
    const reasoning = run.reasoning;
    run.text = '';
    run.reasoning = '';
    run.calls = [];
    run.results = new Map();
    this.conversation.failed();
    if (run.turnOpen) {
      run.turnOpen = false;
      yield { method: 'TurnEnd', params: { turn: run.turn, stopped: true, stop_reason: 'error' } };
    }
    run.held = undefined;
    run.ended = true;
    yield { method: 'RunEnd', params: { content, tool_calls: [], reasoning_content: reasoning, usage: null, stop_reason: 'error', turn: run.turn } };
  }
}
