/**
 * The features of `<pagent-chat>` that keep a conversation alive across pages, one chunk loaded once the
 * element has an agent and a store: an answer a reload cut, shown with Continue
 * (./interrupted/controller.ts), and one runner per conversation across tabs (./tabs/controller.ts).
 */
import type { ChatHost } from './chat-host.js';
import { InterruptedTurns } from './interrupted/controller.js';
import { Tabs } from './tabs/controller.js';

/** Both features, made with the element's host. */
export class KeepAlive {
  readonly interrupted: InterruptedTurns;
  /** Absent where the browser has no Web Locks or no BroadcastChannel: tabs then run as they did before. */
  readonly tabs: Tabs | undefined;

  constructor(host: ChatHost) {
    this.interrupted = new InterruptedTurns(host);
    this.tabs = typeof navigator !== 'undefined' && navigator.locks && typeof BroadcastChannel === 'function' ? new Tabs(host) : undefined;
  }
}
