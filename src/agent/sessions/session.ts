/**
 * Conversation history for the agent: `Session` (everything), `SlidingWindowSession` (sends the newest
 * messages that fit a token budget) and `CompactingSession` (summarises old history with the model).
 * Messages are OpenAI-shaped; reasoning stays on assistant messages as `reasoning_content` and is sent back.
 */
import type { ChatMessage } from '../messages.js';
import { partsTokens, partsTranscript } from '../content-parts.js';

/** A session as plain JSON (what the session store keeps). `messages` exclude the system prompt. */
export interface SessionJSON {
  version: 1;
  kind: 'session' | 'sliding-window' | 'compacting';
  systemPrompt: string | undefined;
  messages: ChatMessage[];
}

/** Counts the tokens of a text. */
export type CountTokens = (text: string) => number;

// CJK ideographs, kana, hangul, fullwidth forms and CJK punctuation: roughly one token per character.
const DENSE = /[\u2E80-\u9FFF\uA960-\uA97F\uAC00-\uD7FF\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFFEF]/u;

/**
 * Estimates the tokens of a text without a tokenizer, for Latin and CJK text alike: about four
 * ASCII characters per token, two other BMP characters (accented letters, Cyrillic, Arabic …) per token,
 * and one token per CJK ideograph, kana, hangul syllable or astral character (emoji).
 */
export function estimateTokens(text: string): number {
  let tokens = 0;
  let narrow = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code < 0x80) narrow += 1;
    else if (code > 0xffff || DENSE.test(ch)) tokens += 1;
    else narrow += 2;
  }
  return tokens + Math.ceil(narrow / 4);
}

// Per-message overhead in OpenAI's chat format (role and separators).
const MESSAGE_OVERHEAD = 4;

/**
 * Estimated tokens of one message: its content, reasoning and tool calls, plus a small overhead. Content
 * parts count their text, a fixed estimate per image (`IMAGE_TOKENS`) and a size-based one per file.
 */
export function messageTokens(message: ChatMessage, count: CountTokens = estimateTokens): number {
  const content = message.content;
  let tokens = MESSAGE_OVERHEAD + (Array.isArray(content) ? partsTokens(content, count) : count((content as string | null) ?? ''));
  if (message.role === 'assistant') {
    if (message.reasoning_content) tokens += count(message.reasoning_content);
    for (const call of message.tool_calls ?? []) tokens += count(call.function.name) + count(call.function.arguments) + 3;
  }
  return tokens;
}

/**
 * Splits history into groups that must stay together: an assistant message with `tool_calls` and the
 * tool messages that answer it form one group; every other message is a group of its own.
 */
function groupStarts(messages: readonly ChatMessage[]): number[] {
  const starts: number[] = [];
  messages.forEach((m, i) => {
    if (m.role !== 'tool' || i === 0) starts.push(i);
  });
  return starts;
}

/**
 * The history of one conversation, with an optional system prompt sent first on every request.
 *
 * @example
 * const session = new Session('You are helpful.');
 * session.append({ role: 'user', content: 'Hi' });
 */
export class Session {
  /** The system prompt sent before the history, if any. */
  readonly systemPrompt: string | undefined;
  /** @internal */
  protected history: ChatMessage[] = [];

  constructor(systemPrompt?: string) {
    this.systemPrompt = systemPrompt;
  }

  /** The history without the system message, oldest first. */
  get messages(): readonly ChatMessage[] {
    return this.history;
  }

  /**
   * Appends messages to the history. A long list (a stored conversation of any size) is added one message
   * a call, in a loop: spreading it into one call fails past the engine's limit on arguments (a
   * `RangeError`, from about 80,000 messages in Chromium).
   */
  append(...messages: ChatMessage[]): void {
    for (const message of messages) this.history.push(message);
  }

  /** Removes every message (the system prompt stays). */
  clear(): void {
    this.history = [];
  }

  /**
   * The messages to send for the next model request: the system prompt, then the history.
   * Subclasses trim or compact here; the agent calls it before every model call.
   */
  async requestMessages(_options: { signal?: AbortSignal } = {}): Promise<ChatMessage[]> {
    return this.withSystem(this.history);
  }

  /** @internal */
  protected withSystem(messages: readonly ChatMessage[]): ChatMessage[] {
    return this.systemPrompt === undefined ? [...messages] : [{ role: 'system', content: this.systemPrompt }, ...messages];
  }

  /** @internal */
  protected kind(): SessionJSON['kind'] {
    return 'session';
  }

  /** The session as plain JSON (a copy of the message list). */
  toJSON(): SessionJSON {
    return { version: 1, kind: this.kind(), systemPrompt: this.systemPrompt, messages: this.history.slice() };
  }

  /**
   * Rebuilds a session from {@link Session.toJSON} output. Always a plain `Session` (a sliding window or a
   * compacting session needs its options: create it, then append each of `Session.fromJSON(json).messages`).
   *
   * @throws {TypeError} when `json` is not a version-1 session.
   */
  static fromJSON(json: SessionJSON): Session {
    if (json === null || typeof json !== 'object' || json.version !== 1 || !Array.isArray(json.messages)) {
      throw new TypeError('Session.fromJSON: not a version 1 session');
    }
    const session = new Session(json.systemPrompt ?? undefined);
    for (const message of json.messages) session.append(message);
    return session;
  }
}

/** Options of {@link SlidingWindowSession}. */
export interface SlidingWindowSessionOptions {
  /** Token budget of a request (system prompt included). */
  maxTokens: number;
  /**
   * Counts tokens of a text (plug a real tokenizer in here).
   * @defaultValue {@link estimateTokens}
   */
  countTokens?: CountTokens;
}

/**
 * A session that sends only the newest messages fitting `maxTokens`. The full history is kept (and
 * saved); each request gets the system prompt plus the longest run of newest messages that fits,
 * never splitting an assistant `tool_calls` message from its tool results, and always at least the
 * newest message group even when that alone is over budget.
 */
export class SlidingWindowSession extends Session {
  /** The token budget of a request. */
  readonly maxTokens: number;
  private readonly count: CountTokens;

  constructor(systemPrompt: string | undefined, options: SlidingWindowSessionOptions) {
    super(systemPrompt);
    if (!(options.maxTokens > 0)) throw new RangeError('SlidingWindowSession: maxTokens must be > 0');
    this.maxTokens = options.maxTokens;
    this.count = options.countTokens ?? estimateTokens;
  }

  /** The messages of the history that the next request will carry (without the system prompt). */
  window(): ChatMessage[] {
    const history = this.history;
    let budget = this.maxTokens - (this.systemPrompt === undefined ? 0 : MESSAGE_OVERHEAD + this.count(this.systemPrompt));
    const starts = groupStarts(history);
    let from = history.length;
    for (let g = starts.length - 1; g >= 0; g--) {
      const start = starts[g]!;
      let cost = 0;
      for (let i = start; i < from; i++) cost += messageTokens(history[i]!, this.count);
      if (cost > budget && from < history.length) break;
      budget -= cost;
      from = start;
      if (budget < 0) break;
    }
    return history.slice(from);
  }

  override async requestMessages(): Promise<ChatMessage[]> {
    return this.withSystem(this.window());
  }

  protected override kind(): SessionJSON['kind'] {
    return 'sliding-window';
  }
}

/** The minimal model client a {@link CompactingSession} needs (an `LLM` fits). */
export interface SummaryModel {
  stream(request: { messages: ChatMessage[]; signal?: AbortSignal }): AsyncIterable<
    { type: 'text'; text: string } | { type: 'reasoning'; text: string } | { type: 'step'; step: { content: string } }
  >;
}

/** Options of {@link CompactingSession}. */
export interface CompactingSessionOptions {
  /** The model that writes the summary. */
  llm: SummaryModel;
  /** Compact before a request when the history is estimated above this many tokens. */
  compactAtTokens: number;
  /**
   * Counts tokens of a text.
   * @defaultValue {@link estimateTokens}
   */
  countTokens?: CountTokens;
}

/** The instruction the summarising model gets. */
export const COMPACTOR_SYSTEM =
  'You compress a conversation between a user and an AI assistant into a handoff summary. ' +
  'The assistant will continue using only your summary plus the most recent messages, so keep ' +
  "everything needed to continue: the user's goals and requirements (verbatim where exact wording " +
  'matters), decisions made, facts and tool results learned, what is done, and open questions. ' +
  'Write plain text, no preamble.';

const SUMMARY_PREFIX = 'Summary of the earlier conversation:\n';

function transcript(messages: readonly ChatMessage[]): string {
  return messages
    .map((m) => {
      if (m.role === 'tool') return `[tool result ${m.tool_call_id}]\n${m.content}`;
      if (m.role === 'assistant') {
        const calls = (m.tool_calls ?? []).map((c) => `[tool call ${c.function.name}(${c.function.arguments})]`);
        return [`[assistant]`, m.content ?? '', ...calls].filter((s) => s !== '').join('\n');
      }
      return `[${m.role}]\n${partsTranscript(m.content)}`;
    })
    .join('\n\n');
}

/**
 * A session that summarises its history with the model when it grows past `compactAtTokens`.
 * `compact()` keeps the newest exchange (from the last user message on) verbatim and replaces
 * everything before it with one user message holding the summary; the agent calls it automatically
 * before a request when {@link CompactingSession.shouldCompact} is true. A failed automatic
 * compaction leaves the history as it was and the request goes out uncompacted.
 */
export class CompactingSession extends Session {
  /** The compaction threshold in tokens. */
  readonly compactAtTokens: number;
  private readonly llm: SummaryModel;
  private readonly count: CountTokens;

  constructor(systemPrompt: string | undefined, options: CompactingSessionOptions) {
    super(systemPrompt);
    if (!(options.compactAtTokens > 0)) throw new RangeError('CompactingSession: compactAtTokens must be > 0');
    this.llm = options.llm;
    this.compactAtTokens = options.compactAtTokens;
    this.count = options.countTokens ?? estimateTokens;
  }

  /** Estimated tokens of the system prompt plus the history. */
  get tokens(): number {
    let total = this.systemPrompt === undefined ? 0 : MESSAGE_OVERHEAD + this.count(this.systemPrompt);
    for (const m of this.history) total += messageTokens(m, this.count);
    return total;
  }

  /** True when the history is over `compactAtTokens`. */
  get shouldCompact(): boolean {
    return this.tokens > this.compactAtTokens;
  }

  /**
   * Summarises the history before the last user message into one message. Resolves to false when there
   * was nothing older to summarise.
   *
   * @throws whatever the model client throws (the history is then unchanged).
   */
  async compact(options: { signal?: AbortSignal } = {}): Promise<boolean> {
    let keepFrom = -1;
    for (let i = this.history.length - 1; i >= 0; i--) {
      if (this.history[i]!.role === 'user') {
        keepFrom = i;
        break;
      }
    }
    if (keepFrom <= 0) return false;
    const old = this.history.slice(0, keepFrom);
    const request: { messages: ChatMessage[]; signal?: AbortSignal } = {
      messages: [
        { role: 'system', content: COMPACTOR_SYSTEM },
        { role: 'user', content: `Summarise this conversation:\n\n${transcript(old)}` },
      ],
    };
    if (options.signal) request.signal = options.signal;
    let summary = '';
    for await (const event of this.llm.stream(request)) {
      if (event.type === 'step') summary = event.step.content;
    }
    const current = this.history.slice(keepFrom);
    this.history = [{ role: 'user', content: SUMMARY_PREFIX + summary.trim() }, ...current];
    return true;
  }

  override async requestMessages(options: { signal?: AbortSignal } = {}): Promise<ChatMessage[]> {
    if (this.shouldCompact) {
      try {
        await this.compact(options);
      } catch (err) {
        if (options.signal?.aborted) throw err;
      }
    }
    return this.withSystem(this.history);
  }

  protected override kind(): SessionJSON['kind'] {
    return 'compacting';
  }
}
