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
import { failedRunEvents, type ParamsOf, type UnknownEvent, type WireEvent } from '../../wire/events.js';
import { hasDataImage, inputText, sendableMessages, type UserContentPart, type UserInput } from '../content-parts.js';
import type { ChatMessage } from '../messages.js';
import { linkedAbort, runEndOf, textOf } from '../run-results.js';
import { Conversation } from '../sessions/conversation.js';
import type { Session } from '../sessions/session.js';
import type { Tool } from '../tools/tools.js';
import type { RemoteInterrupt, RemoteProtocol, RemoteProtocolName, RemoteResumption, RemoteToolInfo } from './protocol.js';
import type { RemoteAgentOptions, RemoteRunOptions, RemoteWireOptions } from './remote-agent-options.js';
import { askUser, callPageTool, tellPage, type PageHandlers } from './remote-page-calls.js';
import { loadProtocol, requestBody } from './remote-request.js';
import {
  applySnapshot,
  CANCELLED_TOOL_TEXT,
  closeTurn,
  commitTurn,
  endCancelled,
  endFailed,
  endFinished,
  foldEvent,
  newRunState,
  recordResult,
  type ResponseEnd,
  type RunState,
} from './remote-turns.js';

export type { RemoteInterrupt, RemoteAnswer, RemoteProtocolName } from './protocol.js';
export type { RemoteAgentOptions, RemoteInterruptHandler, RemoteRunOptions, RemoteWireOptions } from './remote-agent-options.js';

type RunEndParams = ParamsOf<'RunEnd'>;

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
    const abort = linkedAbort(options.signal);
    const run = newRunState(this.conversation, this.failedCalls);
    try {
      for await (const event of this.loop(input, options, abort.signal, run)) {
        this.conversation.observe(event);
        yield event;
      }
    } finally {
      abort.release();
      if (!run.ended) {
        commitTurn(run, CANCELLED_TOOL_TEXT);
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
    const { conversation, failedCalls } = this;
    const userInput = typeof input === 'string' ? input : input.map((part): UserContentPart => ({ ...part }));
    let protocol: RemoteProtocol;
    try {
      const failed = await conversation.restore();
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
    const cut = conversation.carry(continuing);
    const settled = cut && !resumed ? conversation.settle(cut) : [];
    const retry = options.retry === true && conversation.awaitsAnswer(userInput);
    const edited = this.rewoundTo;
    this.rewoundTo = undefined;
    if (!retry && !continuing) conversation.add({ role: 'user', content: userInput });
    yield { method: 'RunBegin', params: { user_input: continuing ? '' : inputText(userInput) } };
    if (settled.length > 0) {
      yield* settled;
      run.offset = 1;
    }

    const page: PageHandlers = {
      tools: this.tools,
      hooks: this.options.hooks,
      approve: options.approve ?? this.options.approve,
      interrupt: options.interrupt ?? this.options.interrupt,
    };
    let trigger: 'submit' | 'regenerate' | 'continue' = continuing ? 'continue' : retry ? 'regenerate' : 'submit';
    for (let request = 0; ; request++) {
      if (signal.aborted) return yield* endCancelled(run);
      if (this.steers.length > 0) this.applySteers(options.onSteer);
      const questions: RemoteInterrupt[] = [];
      let snapshot: ChatMessage[] | undefined;
      const response: ResponseEnd = { end: undefined, failed: false };
      const onDecodeError = (error: WireDecodeError | PagentError): void => tellPage([this.options.onDecodeError, options.onDecodeError], error);
      const sink = {
        state: (state: unknown): void => {
          this.currentState = state;
          tellPage([this.options.onState, options.onState], state);
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
        const history = conversation.session.messages;
        // only a request that carries a data: image waits for the check of its bytes
        const sent = hasDataImage(history) ? await sendableMessages(history) : history;
        body = requestBody(protocol, this.options.body, run, sent, {
          threadId: this.sessionId,
          tools: this.toolInfo,
          state: this.currentState,
          trigger,
          edited: trigger === 'submit' ? edited : undefined,
          serverSessionId: this.serverSessionId,
          failedCalls,
        });
        const given = this.options.headers;
        headers = typeof given === 'function' ? await given() : given;
      } catch (err) {
        return yield* endFailed(run, new PagentError(`RemoteAgent could not build the request: ${errorMessage(err)}`, { code: 'provider', where: 'remote', cause: err }));
      }

      for await (const event of client.stream(replay ? undefined : body, { signal, headers })) {
        if ('unknown' in event) {
          protocol.observe(event as UnknownEvent, sink);
          continue;
        }
        yield* foldEvent(run, event, response);
      }
      if (client.sessionId !== undefined) this.serverSessionId = client.sessionId;

      if (signal.aborted || response.end?.stop_reason === 'cancelled') return yield* endCancelled(run);
      if (response.failed || !response.end || response.end.stop_reason === 'error') {
        if (!response.failed) {
          yield { method: 'RunError', params: { message: `The back end's response ended without finishing the run: POST ${this.url}`, code: 'truncated', where: 'remote' } };
        }
        return yield* endFailed(run);
      }

      // What the back end left to the page: its questions, and calls without a result.
      const asked = new Set(questions.flatMap((q) => (q.toolCallId === undefined ? [] : [q.toolCallId])));
      const open = run.calls.filter((call) => !run.results.has(call.id) && !asked.has(call.id));
      let answeredCalls = 0;
      for (const question of questions) {
        if (question.expiresAt !== undefined && Date.parse(question.expiresAt) <= Date.now()) {
          yield { method: 'RunError', params: { message: `The back end's question expired at ${question.expiresAt}; it is cancelled with the next message`, code: 'provider', where: 'remote' } };
          return yield* endFailed(run);
        }
        const outcome = yield* askUser(question, run, page, signal);
        if (signal.aborted) return yield* endCancelled(run);
        protocol.answer(question, outcome);
        if (question.toolCallId !== undefined && run.calls.some((call) => call.id === question.toolCallId)) answeredCalls++;
      }
      for (const call of open) {
        const outcome = await callPageTool(call, page, signal);
        if (signal.aborted || !outcome) return yield* endCancelled(run);
        yield recordResult(run, { tool_call_id: call.id, name: call.function.name, content: outcome.content, ok: outcome.ok, elapsed_ms: Math.round(outcome.elapsedMs ?? 0) });
      }
      const goesOn = questions.length > 0 || open.length > 0 || this.steers.length > 0;
      if (!goesOn || request + 1 >= this.maxRequests) {
        return yield* endFinished(run, goesOn ? 'max_turns' : (run.held?.stop_reason ?? response.end.stop_reason ?? 'no_tool_calls'), snapshot);
      }
      run.held = undefined;
      if (answeredCalls > 0) {
        // the back end answers the questions about its calls first: the next response continues this turn
        run.merge = true;
        run.offset = run.turn;
      } else {
        yield* closeTurn(run, false, 'continuing');
        run.offset = run.turn + 1;
        applySnapshot(run, snapshot);
      }
      conversation.save();
      trigger = 'continue';
    }
  }

  /** Adds the steered messages to the conversation, in order, and tells the run's `onSteer`. */
  private applySteers(onSteer: RemoteRunOptions['onSteer']): void {
    const texts = this.steers;
    this.steers = [];
    for (const text of texts) {
      this.conversation.add({ role: 'user', content: text });
      tellPage([onSteer], text);
    }
  }

}
