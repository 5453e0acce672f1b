/**
 * What `<pagent-chat>` hands to its features loaded as chunks — the message actions, those that keep a
 * conversation alive across pages (./interrupted/ and ./tabs/), dictation, read aloud, feedback and the
 * context meter: one host object with the element itself, for what it offers anyone, and the operations
 * of its own they build on, so each feature is written over
 * these and the element only composes them.
 */
import type { ReactiveControllerHost, html, nothing } from 'lit';
import type { UnknownEvent, WireEvent } from '../wire/events.js';
import type { ApprovalRequest, ChatAgent, ChatAgentRunOptions } from './runs/agent-runs.js';
import type { LocaleName, PagentChatStrings } from './i18n.js';
import type { RunSource } from './runs/run-controller.js';
import type { ChatStore } from './conversations/controller.js';
import type { TimelineState } from './timeline/items.js';
import type { ActionsHost } from './message-actions/controller.js';

/** The element's public side, as its features use it. */
export type ChatElement = ReactiveControllerHost &
  HTMLElement & {
    readonly store: ChatStore | undefined;
    readonly agent: ChatAgent | undefined;
    /** True while a run is in flight (or a run opened by `push()` is open). */
    readonly streaming: boolean;
    readonly renderRoot: HTMLElement | DocumentFragment;
    requestApproval(call: ApprovalRequest): Promise<boolean>;
    /** The voice and feedback options (see the element's properties of the same names). */
    readonly voice: boolean;
    readonly readAloud: boolean;
    readonly transcribe: ((audio: Blob) => Promise<string>) | undefined;
    readonly feedback: boolean;
    readonly contextWindow: number | undefined;
  };

/** The element, as its features see it. */
export interface ChatHost extends ActionsHost {
  readonly el: ChatElement;
  readonly lit: { html: typeof html; nothing: typeof nothing };
  /** The timeline shown (setting it shows another). */
  timeline: TimelineState;
  strings(): PagentChatStrings;
  locale(): LocaleName;
  /** Feeds one event to the timeline, as the element's own runs do (the `pagent-*` events included). */
  apply(event: WireEvent | UnknownEvent): void;
  /** A run of the agent: `input` with the element's run options and `options`. */
  source(input: string, options: Pick<ChatAgentRunOptions, 'continue' | 'approve'>): RunSource;
  /** Runs `source` as the element's run (under the tabs' lock when they are loaded); settles when it ended. */
  run(source: RunSource): Promise<void>;
  /** Settles once the agent's runs and session switches started so far are done. */
  settled(): Promise<void>;
  /** Places the shown messages on the stored tree again (the message actions). */
  placeMessages(): void;
}
