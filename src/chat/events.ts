/**
 * The DOM events `<pagent-chat>` dispatches. All are `CustomEvent`s with the payload in `detail`,
 * bubbling and composed (they cross shadow roots); `pagent-send` and the message actions' events
 * (`pagent-copy`, `pagent-regenerate`, `pagent-edit`, `pagent-branch`) are cancelable: `preventDefault()`
 * vetoes the action.
 */
import type { PagentError } from '../errors.js';
import type { ChatAttachment } from './attachments/types.js';
import type { ParamsOf, UnknownEvent, WireEvent } from '../wire/events.js';

/** `pagent-send`: the user sent a message. Cancel it (`preventDefault()`) to handle the text yourself. */
export interface PagentSendDetail {
  text: string;
  /** Files sent with the message (absent when there are none). */
  attachments?: readonly ChatAttachment[];
  /** True when the user pressed Retry on a failed run (`text` is that run's input, shown once). */
  retry?: boolean;
  /** True when the user pressed Continue (or answered an approval) on an answer a reload cut (`text` is empty). */
  continue?: boolean;
}
/**
 * `pagent-event`: every known event the timeline received, in order (deltas included). `event` is a
 * `WireEvent`, so `switch (e.detail.event.method)` narrows `params`. Events of methods this version does
 * not know come as `pagent-unknown-event` instead.
 */
export interface PagentEventDetail {
  event: WireEvent;
}
/**
 * `pagent-unknown-event`: an event of a method this version does not know (from a source that yields
 * them, such as `src`'s client: AG-UI `STATE_SNAPSHOT`, AI SDK `data-*` parts, a newer server's methods).
 * The timeline skips it; the page may use it.
 */
export interface PagentUnknownEventDetail {
  event: UnknownEvent;
}
/** `pagent-run-end`: a run ended (also when cancelled or failed). */
export interface PagentRunEndDetail {
  params: ParamsOf<'RunEnd'>;
}
/** `pagent-error`: a run failed (`RunError`), as a {@link PagentError}. */
export interface PagentErrorDetail {
  error: PagentError;
}
/**
 * `pagent-state`: the agent's back end changed the shared state (a `RemoteAgent` over AG-UI:
 * `STATE_SNAPSHOT` or `STATE_DELTA`). `state` is the whole state after the change, as `agent.state` holds it.
 */
export interface PagentStateDetail {
  state: unknown;
}

/**
 * `pagent-export`: a conversation is about to be downloaded from the list. Cancel it to save `text`
 * yourself (no download starts then).
 */
export interface PagentExportDetail {
  id: string;
  format: 'markdown' | 'json';
  /** The download's name, derived from the title (sanitised). */
  fileName: string;
  /** The file's content: the Markdown transcript, or exactly `store.export(id)`. */
  text: string;
}
/** `pagent-import`: a file was imported into the store (then opened). */
export interface PagentImportDetail {
  /** The stored conversation's id (a new one when the file's id was taken). */
  id: string;
  fileName: string;
}
/** `pagent-copy`: the user copies a message (cancel it to copy in your own way). */
export interface PagentCopyDetail {
  /** An answer's Markdown source, or a user message's text. */
  text: string;
  role: 'user' | 'assistant';
}
/** `pagent-regenerate`: the user asks for the last answer again (a new version beside the old one). */
export interface PagentRegenerateDetail {
  /** The user message that is run again. */
  text: string;
}
/** `pagent-edit`: the user sends an edited message (a new version of it, from that point on). */
export interface PagentEditDetail {
  text: string;
  /** The message's text before the edit. */
  previous: string;
}
/** `pagent-branch`: the user shows another version of a message (its store `seq`). */
export interface PagentBranchDetail {
  seq: number;
}

/**
 * `pagent-feedback`: the reader rated an answer 👍 (`up`) or 👎 (`down`, with what they wrote, if
 * anything). Cancelable: cancel it and the rating is neither shown nor stored.
 */
export interface PagentFeedbackDetail {
  /** `"<conversation id>:<seq>"` for an answer kept in the element's store, else the answer's key in the timeline. */
  messageId: string;
  rating: 'up' | 'down';
  comment?: string;
  /** The answer's Markdown source. */
  text: string;
}

/** Payloads by event name. */
export interface PagentChatEventMap {
  'pagent-send': CustomEvent<PagentSendDetail>;
  'pagent-event': CustomEvent<PagentEventDetail>;
  'pagent-unknown-event': CustomEvent<PagentUnknownEventDetail>;
  'pagent-run-end': CustomEvent<PagentRunEndDetail>;
  'pagent-error': CustomEvent<PagentErrorDetail>;
  'pagent-state': CustomEvent<PagentStateDetail>;
  'pagent-export': CustomEvent<PagentExportDetail>;
  'pagent-import': CustomEvent<PagentImportDetail>;
  'pagent-copy': CustomEvent<PagentCopyDetail>;
  'pagent-regenerate': CustomEvent<PagentRegenerateDetail>;
  'pagent-edit': CustomEvent<PagentEditDetail>;
  'pagent-branch': CustomEvent<PagentBranchDetail>;
  'pagent-feedback': CustomEvent<PagentFeedbackDetail>;
}

const CANCELABLE = new Set(['pagent-send', 'pagent-copy', 'pagent-regenerate', 'pagent-edit', 'pagent-branch', 'pagent-export', 'pagent-feedback']);

/** Builds one of the element's events: bubbling, composed, and cancelable for `pagent-send`, the message actions and `pagent-export`. */
export function createChatEvent<K extends keyof PagentChatEventMap>(
  type: K,
  detail: PagentChatEventMap[K]['detail'],
): PagentChatEventMap[K] {
  return new CustomEvent(type, { detail, bubbles: true, composed: true, cancelable: CANCELABLE.has(type) }) as PagentChatEventMap[K];
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface GlobalEventHandlersEventMap extends PagentChatEventMap {}
}
