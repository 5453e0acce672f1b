/**
 * The timeline's view model: the rows `<pagent-chat>` draws (user messages, answer and reasoning blocks,
 * tool calls, turns, errors, run ends, questions) and the state the reducer keeps between events.
 */
import type { ChatAttachment } from '../attachments/types.js';
import type { ErrorCode, StopReason } from '../../wire/events.js';
import type { ErrorKind } from '../error-kind.js';
import type { RemoteInterrupt } from '../../agent/remote/protocol.js';

/** Streamed text kept as append-only chunks, so appending never copies what came before. */
export interface TextBlock {
  readonly chunks: string[];
  readonly length: number;
}

interface ItemBase {
  /** Stable key for keyed rendering. */
  readonly key: string;
  /** 1-based number of the run the item belongs to (0 for items outside any run). */
  readonly run: number;
}

/** A message the user sent (the run's `user_input`). */
export interface UserItem extends ItemBase {
  readonly kind: 'user';
  readonly text: string;
  /** Files sent with the message. */
  readonly attachments?: readonly ChatAttachment[] | undefined;
}

/** A block of reasoning: open while it streams. */
export interface ReasoningItem extends ItemBase {
  readonly kind: 'reasoning';
  readonly text: TextBlock;
  readonly streaming: boolean;
  /** Times the reader asked to see more of a text too long to draw at once. */
  readonly more?: number;
}

/** A block of answer text. `stopped` marks a partial answer of a cancelled run. */
export interface AnswerItem extends ItemBase {
  readonly kind: 'answer';
  readonly text: TextBlock;
  readonly streaming: boolean;
  readonly stopped: boolean;
  /** Times the reader asked to see more of a text too long to draw at once. */
  readonly more?: number;
}

/** How far a tool call got. */
export type ToolStatus = 'pending' | 'awaiting-approval' | 'ok' | 'failed' | 'denied' | 'cancelled';

/** One tool call and, once it came, its result. */
export interface ToolItem extends ItemBase {
  readonly kind: 'tool';
  readonly callId: string;
  readonly name: string;
  /** The arguments as sent (JSON text, maybe invalid). */
  readonly arguments: string;
  /** Indented JSON when `arguments` parsed (and are not too long to indent), else `undefined` (render the raw text). */
  readonly prettyArguments: string | undefined;
  readonly status: ToolStatus;
  readonly result: string | undefined;
  readonly elapsedMs: number | undefined;
  readonly truncated: boolean;
}

/** The boundary before a turn after the first. */
export interface TurnItem extends ItemBase {
  readonly kind: 'turn';
  readonly turn: number;
}

/** A failed run (`RunError`). `input` is the run's user input, for a retry. */
export interface ErrorItem extends ItemBase {
  readonly kind: 'error';
  readonly message: string;
  readonly code: ErrorCode;
  readonly status: number | undefined;
  readonly where: string | undefined;
  /** What kind of failure it is: the card leads with one short sentence for it. */
  readonly failure: ErrorKind;
  readonly input: string | undefined;
  /**
   * True while this failure can be retried: it has an input, it is the latest run's, and it has not been
   * retried yet (a retry re-runs it once, in place).
   */
  readonly retryable: boolean;
}

/** Token counts read from a provider's `usage`, whichever names it used. */
export interface UsageSummary {
  readonly input: number | undefined;
  readonly output: number | undefined;
  readonly total: number | undefined;
}

/** The end of a run: why it stopped and the tokens it used. */
export interface RunEndItem extends ItemBase {
  readonly kind: 'run-end';
  readonly stopReason: StopReason | undefined;
  readonly cancelled: boolean;
  readonly failed: boolean;
  /** True when a cancelled run had no answer text to mark as stopped (so the end itself shows it). */
  readonly stoppedWithoutAnswer: boolean;
  readonly usage: UsageSummary | undefined;
}

/** How a question of the agent ended: still asked, answered, dismissed by the user, or cut by the run's end. */
export type QuestionStatus = 'asked' | 'answered' | 'dismissed' | 'cancelled';

/** A question the agent asked the user during a run (a remote back end's interrupt), and its answer. */
export interface QuestionItem extends ItemBase {
  readonly kind: 'question';
  readonly question: RemoteInterrupt;
  readonly status: QuestionStatus;
  /** The answer as sent, once answered. */
  readonly answer?: unknown;
}

/** One row of the timeline. */
export type TimelineItem = UserItem | ReasoningItem | AnswerItem | ToolItem | TurnItem | ErrorItem | RunEndItem | QuestionItem;

/** The view model. */
export interface TimelineState {
  /** The rows, oldest first. Append-only and shared with the previous state. */
  readonly items: TimelineItem[];
  /** True from a run's first event until its `RunEnd`. */
  readonly runOpen: boolean;
  /** Runs seen so far. */
  readonly run: number;
  /** Index of the answer / reasoning block in flight, or -1. */
  readonly answerIndex: number;
  readonly reasoningIndex: number;
  /** Index of the run's latest answer block (streaming or not), or -1. */
  readonly lastAnswerIndex: number;
  /** Tool call id → item index, for the run in flight (shared, like `items`). */
  readonly toolIndex: Map<string, number>;
  /** Tool calls waiting for a decision that have no card yet (approval asked before `ToolCallBegin`). */
  readonly awaitingApproval: Set<string>;
  /** The user input of the run in flight (or of a message sent and not yet answered). */
  readonly input: string | undefined;
  /** True when the last item is a user message sent locally whose run has not begun. */
  readonly sentPending: boolean;
  /** Answer text seen in the run in flight (so a `RunEnd` without deltas still shows its content). */
  readonly answeredInRun: boolean;
  /** Index of the error card that can still be retried, or -1 (a newer run makes it a record). */
  readonly retryIndex: number;
  /**
   * Deterministic count of the reducer's work: objects allocated, array slots written and chunks
   * appended. Tests compare it per event; it never depends on time.
   */
  readonly work: number;
}

/** An empty timeline. */
export function createTimeline(): TimelineState {
  return {
    items: [],
    runOpen: false,
    run: 0,
    answerIndex: -1,
    reasoningIndex: -1,
    lastAnswerIndex: -1,
    toolIndex: new Map(),
    awaitingApproval: new Set(),
    input: undefined,
    sentPending: false,
    answeredInRun: false,
    retryIndex: -1,
    work: 0,
  };
}

/** The whole text of a block (joins the chunks: O(length), for tests and finished blocks). */
export function blockText(block: TextBlock): string {
  return block.chunks.join('');
}
