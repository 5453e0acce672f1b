/**
 * What `RemoteAgent` asks of each back-end protocol (AG-UI, the AI SDK, pagent): the request body for the
 * conversation so far, and what the protocol's own events (state, snapshots, approval requests,
 * interrupts) mean for the run. One protocol object serves one `RemoteAgent`; each lives in its own
 * module, loaded on the agent's first run.
 */
import type { UnknownEvent } from '../../wire/events.js';
import type { DialectName } from '../../wire/dialects/index.js';
import type { ChatMessage } from '../messages.js';

/** The protocols a `RemoteAgent` speaks. */
export type RemoteProtocolName = 'ag-ui' | 'ai-sdk' | 'pagent';

/** A tool of the page as the back end is told about it. */
export interface RemoteToolInfo {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** A question the back end asked at the end of a response (AG-UI interrupt, AI SDK approval request). */
export interface RemoteInterrupt {
  /** The protocol's id of the question (AG-UI `interruptId`, AI SDK `approvalId`). */
  id: string;
  /**
   * `tool_call`: approve or deny the call `toolCallId` (AI SDK approval requests are this kind);
   * `confirmation`: a yes / no question; anything else (`input_required`, a framework's own reason): an
   * answer shaped by `responseSchema`.
   */
  reason: string;
  /** The question as the back end words it, if it gave one. */
  message?: string;
  /** The tool call it is about. */
  toolCallId?: string;
  /** JSON Schema of the answer (`payload`) the back end expects. */
  responseSchema?: Record<string, unknown>;
  /** ISO 8601 time after which an answer is refused. */
  expiresAt?: string;
  /** The back end's own data about the question. */
  metadata?: Record<string, unknown>;
}

/** The answer to a {@link RemoteInterrupt}: a payload, or nothing (the user dismissed it). */
export type RemoteAnswer = { status: 'resolved'; payload: unknown } | { status: 'cancelled' };

/** Everything a request of a run is built from. */
export interface RemoteRequest {
  /** The conversation id: AG-UI `threadId`, AI SDK chat `id`. */
  threadId: string;
  /** A fresh id for this request's run (AG-UI `runId`). */
  runId: string;
  /** The whole conversation in OpenAI's shape, the newest user message included. */
  messages: readonly ChatMessage[];
  /** The page's tools. */
  tools: readonly RemoteToolInfo[];
  /** AG-UI shared state, as the last response left it. */
  state: unknown;
  /**
   * Why the request is made: a new user message (`submit`), another answer to the last one
   * (`regenerate`), or the same run going on after the page answered its tool calls or questions
   * (`continue`).
   */
  trigger: 'submit' | 'regenerate' | 'continue';
  /** With `submit`: the index of the user message that replaced an earlier one (an edit). */
  edited?: number | undefined;
  /** The `X-Session-Id` the back end last answered with in this conversation (pagent servers). */
  serverSessionId: string | undefined;
  /** Calls whose result the page reported as failed (the AI SDK sends those as `output-error`). */
  failedCalls: ReadonlySet<string>;
}

/** What a protocol tells the agent about a response's own events. */
export interface RemoteSink {
  /** The back end replaced or patched the shared state. */
  state(state: unknown): void;
  /** The back end sent a document the agent cannot apply (a JSON Patch that fails): nothing changes. */
  problem(message: string): void;
  /** The back end sent the whole conversation (AG-UI `MESSAGES_SNAPSHOT`). */
  messages(messages: ChatMessage[]): void;
  /** The back end asks something before it goes on. */
  ask(question: RemoteInterrupt): void;
}

/** One back-end protocol, with what it holds for the conversation between requests. */
export interface RemoteProtocol {
  /** The wire dialect its responses are read as. */
  readonly dialect: DialectName | 'auto';
  /** The JSON body of the next request. */
  body(request: RemoteRequest): Record<string, unknown>;
  /** A response's event that is not one of the common events. */
  observe(event: UnknownEvent, sink: RemoteSink): void;
  /** Optional: each raw document of a response, for what the common events leave out. */
  line?(raw: string): void;
  /** Records the answer to a question; the next request carries it. */
  answer(question: RemoteInterrupt, answer: RemoteAnswer): void;
  /** Forgets what it holds for the conversation (another conversation starts). */
  reset(): void;
  /**
   * Optional (AI SDK): asks the back end for the run of conversation `threadId` still in flight; the
   * response to read it from, or `undefined` when there is nothing to resume.
   */
  resume?(url: string, threadId: string, init: { headers?: HeadersInit | undefined; signal?: AbortSignal | undefined }, fetch: typeof globalThis.fetch): Promise<RemoteResumption | undefined>;
}

/** A run to resume: the URL asked and its response (a network failure is the resumed run's). */
export interface RemoteResumption {
  url: string;
  response: Promise<Response>;
}

/** A stable id for the message at `index` of a conversation, for protocols that need message ids. */
export const messageId = (threadId: string, index: number): string => `${threadId}:${index}`;
