/**
 * The message actions of `<pagent-chat>`, a chunk loaded when the element first renders: which shown
 * message is which stored one (by its `seq` on the active path, read from the store after each run, open
 * and switch), copy with a fallback, edit and resend, regenerate, and switching versions. The element
 * hands over what it owns (runs, the timeline, lit's template functions) through {@link ActionsHost}.
 */
import type { TemplateResult } from 'lit';
import type { ChatMessage } from '../../agent/messages.js';
import type { ChatAttachment } from '../attachments/types.js';
import type { ChatAgent } from '../runs/agent-runs.js';
import type { PagentChatStrings } from '../i18n.js';
import type { AnswerItem, TimelineItem, UserItem } from '../timeline/items.js';
import type { RowContext } from '../timeline/row-context.js';
import { renderEditor, renderMessageActions, type Lit, type MessageActionTarget } from './view.js';

/** What the actions need from the element. */
export interface ActionsHost {
  readonly lit: Lit;
  readonly renderRoot: ShadowRoot | HTMLElement;
  readonly updateComplete: Promise<unknown>;
  readonly agent: ChatAgent | undefined;
  readonly store: unknown;
  /** No run is going. */
  idle(): boolean;
  /** The source is `src` or `client`: a stopped last run can be sent again (an agent regenerates instead). */
  resends(): boolean;
  /** Sends the stopped last run's message again, once, as the Retry of a failed run does. */
  retryStopped(): void;
  strings(): PagentChatStrings;
  items(): readonly TimelineItem[];
  requestUpdate(): void;
  /** Dispatches one of the element's cancelable `pagent-*` events; false when the page vetoed it. */
  event(type: 'pagent-copy' | 'pagent-regenerate' | 'pagent-edit' | 'pagent-branch' | 'pagent-feedback', detail: object): boolean;
  announce(text: string): void;
  /** Shows `before`, then the user message `text`, and runs it (`retry`: the agent holds it already). */
  runFrom(before: ChatMessage[], text: string, retry: boolean, attachments: readonly ChatAttachment[] | undefined): void;
  /** Shows the stored conversation `id` again and points the agent at it. */
  reopen(id: string): Promise<void>;
  reportError(err: unknown): void;
}

/** One node of a stored conversation tree (the store's `TreeNode`). */
interface Node {
  seq: number;
  parent: number | null;
  message: ChatMessage;
}

/** The tree operations of a session store the actions use: `createSessionStore()` fits. */
export interface BranchStore {
  loadTree(id: string): Promise<{ head: number; nodes: Node[]; choices: Record<number, number> } | undefined>;
  switchBranch(id: string, seq: number): Promise<unknown>;
}

/** Where a shown message sits on the stored active path. */
export interface StoredPlace {
  /** Index on the active path (the agent's message index). */
  index: number;
  /** Versions: the seqs of its siblings (itself included) and its place among them. */
  versions: { seqs: number[]; index: number };
  /** For an answer: the path index of the user message it answers. */
  userIndex?: number;
  /** The last answer of the conversation. */
  last?: boolean;
}

/** Copies text: the Clipboard API, else a hidden textarea and `execCommand('copy')`; resolves false when both fail. */
export async function copyText(text: string, root: ShadowRoot | HTMLElement): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // denied or unavailable: the old way, from inside the click
  }
  const doc = root.ownerDocument;
  const area = doc.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.cssText = 'position:fixed;inset-inline-start:-9999px;opacity:0';
  root.appendChild(area);
  area.select();
  let ok = false;
  try {
    ok = doc.execCommand('copy');
  } catch {
    ok = false;
  }
  area.remove();
  return ok;
}

export const answerText = (item: AnswerItem): string => item.text.chunks.join('');

/** Keeps the places of the shown messages and the action states; one per element. */
export class MessageActions {
  /** Places by item key, from the last refresh. */
  places = new Map<string, StoredPlace>();
  /** The active path's messages at the last refresh. */
  path: ChatMessage[] = [];
  editingKey: string | undefined;
  copyState: { key: string; ok: boolean } | undefined;
  /** Bumped at every change, so the element makes a new row context (and rows re-render). */
  version = 0;
  private copyTimer: ReturnType<typeof setTimeout> | undefined;

  /** Settles once the shown messages are placed on the stored tree (after an open, a run, a switch). */
  ready: Promise<void> = Promise.resolve();

  constructor(private readonly host: ActionsHost) {}

  private get branchStore(): BranchStore | undefined {
    const s = this.host.store as Partial<BranchStore> | undefined;
    return typeof s?.loadTree === 'function' && typeof s.switchBranch === 'function' ? (s as BranchStore) : undefined;
  }

  /** Edit, Regenerate and versions: an agent that can rewind, a store with trees, no run going. */
  get canBranch(): boolean {
    const agent = this.host.agent;
    return Boolean(agent?.rewind && agent.sessionId !== undefined && this.branchStore) && this.host.idle();
  }

  /**
   * The row (the run's last answer, else its user message) that offers Retry when the last run of a `src`
   * or `client` source was stopped; gone once that retry starts.
   */
  get retryKey(): string | undefined {
    if (!this.host.resends() || !this.host.idle()) return undefined;
    const items = this.host.items();
    const end = items.at(-1);
    if (end?.kind !== 'run-end' || !end.cancelled) return undefined;
    let answer: string | undefined;
    for (let i = items.length - 2; i >= 0 && items[i]!.run === end.run; i--) {
      const item = items[i]!;
      if (item.kind === 'answer') answer ??= item.key;
      if (item.kind === 'user') return answer ?? item.key;
    }
    return undefined;
  }

  /** What the rows' actions depend on besides the rows: the element makes a new row context when it changes. */
  get stamp(): string {
    return `${this.version} ${this.canBranch} ${this.retryKey}`;
  }

  /** Places the shown messages on the stored tree of the agent's conversation (after its saves landed). */
  update(id = this.host.agent?.sessionId): Promise<void> {
    const store = this.branchStore;
    const agent = this.host.agent;
    if (!store || !agent?.rewind || id === undefined) return this.ready;
    this.ready = (async () => {
      try {
        await agent.whenSaved?.();
        await this.refresh(store, id, this.host.items());
      } catch (err) {
        this.host.reportError(err);
      }
    })();
    return this.ready;
  }

  private readonly handlers = {
    copy: (key: string, target: MessageActionTarget) => void this.copy(key, target),
    regenerate: (key: string) => void this.rerun(key, undefined),
    edit: (key: string) => {
      this.editingKey = key;
      this.bump();
      void this.focusLater(`.editor[data-key="${key}"] textarea`);
    },
    sendEdit: (key: string, text: string) => void this.rerun(key, text),
    cancelEdit: (key: string) => {
      this.editingKey = undefined;
      this.bump();
      void this.focusLater(`.message-actions[data-key="${key}"] [part="edit-button"]`);
    },
    switchTo: (key: string, seq: number) => void this.showVersion(key, seq),
    retry: () => this.host.retryStopped(),
  };

  private async focusLater(selector: string): Promise<void> {
    await this.host.updateComplete;
    this.host.renderRoot.querySelector<HTMLElement>(selector)?.focus();
  }

  private async copy(key: string, target: MessageActionTarget): Promise<void> {
    if (!this.host.event('pagent-copy', { text: target.text, role: target.role })) return;
    const ok = await copyText(target.text, this.host.renderRoot);
    this.showCopied(key, ok);
    const s = this.host.strings();
    this.host.announce(ok ? s.copied : s.copyFailed);
  }

  /**
   * Regenerates the answer `key` (`text` undefined) or sends the edited user message `key`: the agent
   * keeps the conversation up to that point and the run's messages are stored as a new branch.
   */
  private async rerun(key: string, text: string | undefined): Promise<void> {
    const place = this.places.get(key);
    const agent = this.host.agent;
    if (!place || !agent?.rewind || !this.canBranch) return;
    const userIndex = text === undefined ? place.userIndex : place.index;
    const userItem = this.host.items().find((i) => i.kind === 'user' && this.places.get(i.key)?.index === userIndex);
    if (userIndex === undefined || userItem?.kind !== 'user') return;
    const input = text ?? userItem.text;
    if (input.trim() === '' && !userItem.attachments) return;
    const vetoed = text === undefined
      ? !this.host.event('pagent-regenerate', { text: input })
      : !this.host.event('pagent-edit', { text: input, previous: userItem.text });
    if (vetoed) return;
    const before = this.path.slice(0, userIndex);
    try {
      await agent.rewind(text === undefined ? userIndex + 1 : userIndex);
    } catch (err) {
      this.host.reportError(err);
      return;
    }
    this.clear();
    this.host.runFrom(before, input, text === undefined, userItem.attachments);
  }

  /** Shows version `seq` of message `key` and everything below it, and saves that choice. */
  private async showVersion(key: string, seq: number): Promise<void> {
    const store = this.branchStore;
    const id = this.host.agent?.sessionId;
    const index = this.places.get(key)?.index;
    if (!store || id === undefined || index === undefined || !this.canBranch) return;
    if (!this.host.event('pagent-branch', { seq })) return;
    try {
      await store.switchBranch(id, seq);
    } catch (err) {
      this.host.reportError(err);
      return;
    }
    await this.host.reopen(id);
    await this.ready;
    // keyboard focus stays on the switcher of the same message
    const shown = [...this.places].find(([, p]) => p.index === index)?.[0];
    if (shown) void this.focusLater(`.message-actions[data-key="${shown}"] [part="branch-switcher"] button:not([disabled])`);
  }

  clear(): void {
    if (this.places.size === 0 && this.editingKey === undefined) return;
    this.places = new Map();
    this.path = [];
    this.editingKey = undefined;
    this.bump();
  }

  bump(): void {
    this.version += 1;
    this.host.requestUpdate();
  }

  /** Reads the stored tree of `id` and places the shown items on its active path. */
  private async refresh(store: BranchStore, id: string, items: readonly TimelineItem[]): Promise<void> {
    const tree = await store.loadTree(id);
    if (!tree) return this.clear();
    const bySeq = new Map(tree.nodes.map((n) => [n.seq, n]));
    const children = new Map<number, number[]>();
    for (const n of tree.nodes) {
      const list = children.get(n.parent ?? -1) ?? [];
      list.push(n.seq);
      children.set(n.parent ?? -1, list);
    }
    const path: Node[] = [];
    for (let at: number | null = tree.head; at !== null && at >= 0; at = bySeq.get(at)?.parent ?? null) path.unshift(bySeq.get(at)!);
    const versionsOf = (seq: number): StoredPlace['versions'] => {
      const seqs = children.get(bySeq.get(seq)!.parent ?? -1) ?? [seq];
      return { seqs, index: seqs.indexOf(seq) };
    };
    const userIndices = path.flatMap((n, i) => (n.message.role === 'user' ? [i] : []));
    const places = new Map<string, StoredPlace>();
    let turn = -1;
    let lastAnswer: { key: string; turn: number } | undefined;
    for (const item of items) {
      if (item.kind === 'user') {
        turn += 1;
        const index = userIndices[turn];
        if (index !== undefined) places.set(item.key, { index, versions: versionsOf(path[index]!.seq) });
      } else if (item.kind === 'answer' && turn >= 0) lastAnswer = { key: item.key, turn };
      if (item.kind === 'answer') {
        const userIndex = userIndices[turn];
        const reply = userIndex === undefined ? undefined : path[userIndex + 1];
        // the answer of a turn carries the versions of the turn's first reply (its regenerations); an answer
        // a reload cut before anything of it was stored has none, and can be regenerated all the same
        if (userIndex !== undefined && reply) places.set(item.key, { index: userIndex + 1, versions: versionsOf(reply.seq), userIndex });
        else if (userIndex === path.length - 1) places.set(item.key, { index: userIndex + 1, versions: { seqs: [], index: 0 }, userIndex });
      }
    }
    // only the last answer of each turn keeps the versions; the last one of all can be regenerated
    let laterAnswer = false;
    for (let i = items.length - 1; i >= 0; i--) {
      const item = items[i]!;
      if (item.kind === 'user') laterAnswer = false;
      if (item.kind !== 'answer') continue;
      const place = places.get(item.key);
      if (place && laterAnswer) places.set(item.key, { ...place, versions: { seqs: [], index: 0 } });
      laterAnswer = true;
    }
    if (lastAnswer && lastAnswer.turn === userIndices.length - 1) {
      const place = places.get(lastAnswer.key);
      if (place) places.set(lastAnswer.key, { ...place, last: true });
    }
    this.places = places;
    this.path = path.map((n) => n.message);
    this.bump();
  }

  /** Shows "Copied" (or the failure) on the message `key` for a moment. */
  showCopied(key: string, ok: boolean): void {
    clearTimeout(this.copyTimer);
    this.copyState = { key, ok };
    this.bump();
    this.copyTimer = setTimeout(() => {
      this.copyState = undefined;
      this.bump();
    }, ok ? 1500 : 5000);
  }

  /**
   * The action row (or, for the message being edited, the editor) of one finished message. `branching`:
   * the element can edit, regenerate and switch (an agent with a store, no run going).
   */
  render(item: UserItem | AnswerItem, ctx: RowContext, branching: boolean): TemplateResult | undefined {
    const lit = this.host.lit;
    const on = this.handlers;
    if (item.kind === 'answer' && item.streaming) return undefined;
    if (item.kind === 'user' && this.editingKey === item.key) {
      return renderEditor(lit, item.key, item.text, ctx, { send: (text) => on.sendEdit(item.key, text), cancel: () => on.cancelEdit(item.key) });
    }
    const place = branching ? this.places.get(item.key) : undefined;
    const target: MessageActionTarget = {
      text: item.kind === 'user' ? item.text : answerText(item),
      role: item.kind === 'user' ? 'user' : 'assistant',
      versions: place?.versions,
      canEdit: item.kind === 'user' && place !== undefined,
      canRegenerate: item.kind === 'answer' && place?.last === true,
      canRetry: this.retryKey === item.key,
    };
    const copy = this.copyState?.key === item.key ? this.copyState : undefined;
    return renderMessageActions(lit, item.key, target, ctx, on, copy, item.kind === 'answer' ? ctx.answerTools?.(item) : undefined);
  }
}
