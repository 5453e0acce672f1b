/**
 * One conversation, one runner (a chunk `<pagent-chat>` loads when it has an agent and a store, in
 * browsers with Web Locks and BroadcastChannel): the tab that runs a conversation holds its Web Lock
 * for the whole run (saves included), and posts the run's events on a BroadcastChannel of the store.
 * Another tab showing that conversation follows the run live — the conversation as it was before the
 * run, then the same events, as if it ran there — and shows the stored conversation again once it
 * ended. A message sent there meanwhile is refused with a note (its text stays in the box); one sent in
 * the moment before the news arrived waits for the lock, with a note, then runs on the conversation as
 * the other tab left it. Never two runs on one history.
 */
import type { ReactiveController, TemplateResult } from 'lit';
import type { ChatMessage } from '../../agent/messages.js';
import type { UnknownEvent, WireEvent } from '../../wire/events.js';
import type { ChatHost } from '../chat-host.js';
import type { RunSource } from '../runs/run-controller.js';
import { timelineFromMessages } from '../timeline/rebuild.js';
import { conversationLock } from './lock.js';
import { tabsStrings } from './strings.js';

type Event = WireEvent | UnknownEvent;

/** What the tabs post on the channel. */
type Message =
  | { type: 'start'; id: string; run: string }
  | { type: 'event'; id: string; run: string; n: number; event: Event }
  | { type: 'end'; id: string; run: string }
  /** A tab that sees a run it has not followed from its start asks for it. */
  | { type: 'sync'; id: string }
  /** The runner's answer: the conversation before the run, and the run's events so far. */
  | { type: 'snapshot'; id: string; run: string; before: ChatMessage[]; events: Event[] };

/** The tabs part of one element. */
export class Tabs implements ReactiveController {
  private channel: BroadcastChannel | undefined;
  /** The run this tab holds the lock for: its conversation, id, the conversation before it and its events. */
  private mine: { id: string; run: string; before: Promise<ChatMessage[]>; events: Event[] } | undefined;
  /** The run of another tab this tab follows, and how many of its events it applied. */
  private following: { id: string; run: string; n: number } | undefined;
  /** A run of another tab this tab asked to follow (waiting for its snapshot). */
  private syncing: { id: string } | undefined;
  private note: 'answeringElsewhere' | 'waitingForOtherTab' | 'sendWhenFinished' | undefined;

  constructor(private readonly host: ChatHost) {
    host.el.addController(this);
    if (host.el.isConnected) this.hostConnected();
  }

  /** The channel of the store's runs: one per database name. */
  private get channelName(): string {
    return conversationLock(this.host.el.store, '').replace(/:$/, '');
  }

  hostConnected(): void {
    if (this.channel) return;
    this.channel = new BroadcastChannel(this.channelName);
    this.channel.onmessage = (e: MessageEvent<Message>) => this.receive(e.data);
  }

  hostDisconnected(): void {
    this.channel?.close();
    this.channel = undefined;
  }

  private post(message: Message): void {
    try {
      this.channel?.postMessage(message);
    } catch {
      // an event that cannot be cloned is not followed; the other tab shows the stored result at the end
    }
  }

  private receive(message: Message): void {
    const { id } = message;
    if (id !== this.host.el.agent?.sessionId) return;
    const mine = this.mine;
    switch (message.type) {
      case 'sync':
        if (mine?.id === id) void mine.before.then((before) => this.mine === mine && this.post({ type: 'snapshot', id, run: mine.run, before, events: mine.events }));
        return;
      case 'start':
      case 'event': {
        if (mine) return;
        const following = this.following;
        if (following?.run === message.run) {
          if (message.type === 'event' && message.n === following.n) {
            following.n += 1;
            this.host.apply(message.event);
          }
          return;
        }
        if (this.syncing?.id === id) return;
        this.syncing = { id };
        this.post({ type: 'sync', id });
        this.watch(id, message.run);
        return;
      }
      case 'snapshot':
        if (this.syncing?.id !== id || mine) return;
        this.syncing = undefined;
        this.following = { id, run: message.run, n: message.events.length };
        this.note = 'answeringElsewhere';
        this.host.timeline = timelineFromMessages(message.before);
        for (const event of message.events) this.host.apply(event);
        this.host.el.requestUpdate();
        return;
      case 'end':
        this.ended(id, message.run);
    }
  }

  /** The followed run ended: the conversation is shown as stored. */
  private ended(id: string, run: string): void {
    if (this.syncing?.id === id) this.syncing = undefined;
    if (this.note === 'sendWhenFinished') this.note = undefined;
    if (this.following?.run !== run) return this.host.el.requestUpdate();
    this.following = undefined;
    this.note = undefined;
    void this.host.reopen(id);
    this.host.el.requestUpdate();
  }

  /**
   * Waits for the runner's lock: its release means the run is over, also when that tab crashed or was
   * closed before it could say so.
   */
  private watch(id: string, run: string): void {
    void navigator.locks.request(conversationLock(this.host.el.store, id), () => this.ended(id, run)).catch(() => undefined);
  }

  /**
   * Refuses a message sent while another tab runs the conversation shown: a note says so and `text` goes
   * back in the box. False when nothing runs elsewhere (the message goes ahead).
   */
  refuse(text: string): boolean {
    const id = this.host.el.agent?.sessionId;
    if (id === undefined || this.mine || !(this.following?.id === id || this.syncing?.id === id)) return false;
    this.note = 'sendWhenFinished';
    const box = this.host.el.renderRoot.querySelector('textarea');
    if (box && box.value === '') box.value = text;
    this.host.el.requestUpdate();
    return true;
  }

  /** `source` run under the conversation's lock, its events posted for the other tabs. */
  hold(source: RunSource): RunSource {
    return (signal) => this.held(source, signal);
  }

  private async *held(source: RunSource, signal: AbortSignal): AsyncGenerator<Event, void, undefined> {
    const { store, agent } = this.host.el;
    const id = this.host.el.agent?.sessionId;
    if (!store || id === undefined) return yield* source(signal);
    const name = conversationLock(store, id);
    let release!: () => void;
    const done = new Promise<void>((resolve) => (release = resolve));
    const got = await new Promise<boolean>((resolve, reject) => {
      navigator.locks.request(name, { ifAvailable: true }, (lock) => (resolve(lock !== null), lock && done)).catch(reject);
    });
    let waited = false;
    if (!got) {
      // another tab started the conversation just now: wait for its run to end, then run on what it left
      waited = true;
      this.note = 'waitingForOtherTab';
      this.host.el.requestUpdate();
      try {
        await new Promise<void>((resolve, reject) => {
          navigator.locks.request(name, { signal }, () => (resolve(), done)).catch(reject);
        });
      } finally {
        this.note = undefined;
        this.host.el.requestUpdate();
      }
      agent?.useSession?.(id);
    }
    const run = globalThis.crypto.randomUUID();
    try {
      // read now, not awaited: IndexedDB runs this read before the run's first write (transactions on one
      // store run in the order they were made), and the run starts at once
      const before = store.load(id).then((s) => [...(s?.messages ?? [])], () => []);
      const mine = (this.mine = { id, run, before, events: [] as Event[] });
      this.following = undefined;
      this.post({ type: 'start', id, run });
      for await (const event of source(signal)) {
        this.post({ type: 'event', id, run, n: mine.events.length, event });
        mine.events.push(event);
        yield event;
      }
    } finally {
      await agent?.whenSaved?.();
      this.post({ type: 'end', id, run });
      this.mine = undefined;
      release();
      if (waited) void this.host.reopen(id);
    }
  }

  /** The note over the message box, while another tab runs the conversation shown. */
  render(): TemplateResult | undefined {
    const { html } = this.host.lit;
    const note = this.note;
    if (!note) return undefined;
    return html`<p part="tabs-note" class="stopped" role="status">${tabsStrings(this.host.locale(), this.host.strings())[note]}</p>`;
  }
}
