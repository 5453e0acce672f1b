/**
 * The message actions of `<pagent-chat>`: which shown message is which stored one (by its `seq` on the
 * active path, read from the store after each run, open and switch), copying with a fallback, and the
 * state of the inline editor and of "Copied". The element does the runs; this keeps the bookkeeping.
 */
import { nothing, type TemplateResult } from 'lit';
import type { ChatMessage } from '../agent/messages.js';
import type { AnswerItem, TimelineItem, UserItem } from './timeline.js';
import type { PartContext } from './parts/context.js';
import { renderEditor, renderMessageActions, type MessageActionHandlers, type MessageActionTarget } from './parts/message-actions.js';

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
  /** Bumped at every change, so the element makes a new part context (and rows re-render). */
  version = 0;
  private copyTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly changed: () => void) {}

  clear(): void {
    if (this.places.size === 0 && this.editingKey === undefined) return;
    this.places = new Map();
    this.path = [];
    this.editingKey = undefined;
    this.bump();
  }

  bump(): void {
    this.version += 1;
    this.changed();
  }

  /** Reads the stored tree of `id` and places the shown items on its active path. */
  async refresh(store: BranchStore, id: string, items: readonly TimelineItem[]): Promise<void> {
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
        // the answer of a turn carries the versions of the turn's first reply (its regenerations)
        if (userIndex !== undefined && reply) places.set(item.key, { index: userIndex + 1, versions: versionsOf(reply.seq), userIndex });
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
  render(
    item: UserItem | AnswerItem,
    ctx: PartContext,
    on: MessageActionHandlers & { sendEdit(key: string, text: string): void; cancelEdit(key: string): void },
    branching: boolean,
  ): TemplateResult | typeof nothing {
    if (item.kind === 'answer' && item.streaming) return nothing;
    if (item.kind === 'user' && this.editingKey === item.key) {
      return renderEditor(item.key, item.text, ctx, { send: (text) => on.sendEdit(item.key, text), cancel: () => on.cancelEdit(item.key) });
    }
    const place = branching ? this.places.get(item.key) : undefined;
    const target: MessageActionTarget = {
      text: item.kind === 'user' ? item.text : answerText(item),
      role: item.kind === 'user' ? 'user' : 'assistant',
      versions: place?.versions,
      canEdit: item.kind === 'user' && place !== undefined,
      canRegenerate: item.kind === 'answer' && place?.last === true,
    };
    const copy = this.copyState?.key === item.key ? this.copyState : undefined;
    return renderMessageActions(item.key, target, ctx, on, copy);
  }
}
