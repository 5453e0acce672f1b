/**
 * What `<pagent-chat>` hands to its parts that keep a conversation alive across pages (./interrupted/ and
 * ./tabs/, chunks loaded on first use): one host object with the element's own operations, so each part
 * is written over these and the element only composes them.
 */
import type { ReactiveControllerHost, html, nothing } from 'lit';
import type { UnknownEvent, WireEvent } from '../wire/events.js';
import type { ApprovalRequest, ChatAgent, ChatAgentRunOptions } from './agent-runs.js';
import type { LocaleName, PagentChatStrings } from './i18n.js';
import type { RunSource } from './run-controller.js';
import type { ChatStore } from './session-controller.js';
import type { TimelineState } from './timeline.js';

/** The element, as its conversation parts see it. */
export interface ChatHost extends ReactiveControllerHost {
  readonly isConnected: boolean;
  readonly lit: { html: typeof html; nothing: typeof nothing };
  readonly store: ChatStore | undefined;
  readonly agent: ChatAgent | undefined;
  /** The timeline shown (setting it shows another). */
  timeline: TimelineState;
  /** True while a run is in flight (or a run opened by `push()` is open). */
  readonly streaming: boolean;
  /** The conversation shown (the one the agent continues). */
  conversationId(): string | undefined;
  strings(): PagentChatStrings;
  locale(): LocaleName;
  /** Feeds one event to the timeline, as the element's own runs do (the `pagent-*` events included). */
  apply(event: WireEvent | UnknownEvent): void;
  /**
   * A run of the agent: `input` with `options` (`continue`, …), approvals asked on the cards unless
   * `approve` answers them.
   */
  source(input: string, options: Pick<ChatAgentRunOptions, 'continue'>, approve?: (call: ApprovalRequest) => Promise<boolean>): RunSource;
  /** Runs `source` as the element's run (under the tabs' lock when they are loaded); settles when it ended. */
  run(source: RunSource): Promise<void>;
  /** Asks the user about a call on its card. */
  requestApproval(call: ApprovalRequest): Promise<boolean>;
  /** Settles once the agent's runs and session switches started so far are done. */
  settled(): Promise<void>;
  /** Dispatches `pagent-send` for a Continue (`{text: '', continue: true}`); false when the page vetoed it. */
  sendContinue(): boolean;
  /** Shows the stored conversation `id` again and points the agent at it (it changed elsewhere). */
  reopen(id: string): void;
  /** Places the shown messages on the stored tree again (the message actions). */
  placeMessages(): void;
  /** Puts text back in the message box (when it is empty). */
  restoreText(text: string): void;
}
