/**
 * Full-text search over the stored conversations: titles and message text, case-insensitive and
 * width-insensitive (NFKC), CJK included (a substring match, no word splitting). Conversations are read
 * one at a time, newest first, in batches of at most {@link SEARCH_BATCH} message records, so a search
 * never holds a whole store (or even a whole long conversation) in memory, and stops reading once it
 * has `limit` hits.
 *
 * What is searched: the title; the text of user messages (text parts only: never an image's or a file's
 * data); assistant answers; the arguments of tool calls and the tool results (both as the text stored).
 * Not searched: reasoning (folded away in the view) and system prompts.
 */
import type { ChatMessage } from '../agent/messages.js';
import { StoreError } from '../errors.js';
import { messageRecordProblem, sessionRecordProblem, type MessageRecord, type SessionRecord } from './records.js';

/** The text around a hit: `before` and `after` start or end with `…` when the text goes on there. */
export interface SearchSnippet {
  before: string;
  /** The matched text as written (its case and width may differ from the query). */
  match: string;
  after: string;
}

/** One conversation found by {@link SessionStore.search}. */
export interface SessionSearchHit {
  id: string;
  title: string;
  /** Epoch milliseconds of the conversation's last write. */
  updatedAt: number;
  /** The matching message's record sequence number; absent when the title matched. */
  seq?: number;
  /** The matching message's role; absent when the title matched. */
  role?: 'user' | 'assistant' | 'tool';
  /** Around the match: in the title for a title hit, else in the message. */
  snippet: SearchSnippet;
}

/** Options of {@link SessionStore.search}. */
export interface SessionSearchOptions {
  /** The most hits returned. @defaultValue 50 */
  limit?: number;
  /** The most hits per conversation (a title hit counts as one). @defaultValue 1 */
  perConversation?: number;
  /** Aborts the search: it rejects with the signal's reason (an `AbortError` `DOMException`). */
  signal?: AbortSignal;
}

/** How many message records one read takes (and so the most a search holds at once). */
export const SEARCH_BATCH = 200;
/** Graphemes of context kept on each side of a match. */
const CONTEXT = 40;

/** Reads inside one readonly transaction of the session store. */
export type SearchRead = <T>(body: (store: IDBObjectStore) => Promise<T>) => Promise<T>;

/** The form both the query and the text are compared in: NFKC, lower case, whitespace runs as one space. */
export function searchForm(text: string): string {
  return text.normalize('NFKC').toLocaleLowerCase().replace(/\s+/g, ' ');
}

const request = <T>(req: IDBRequest<T>): Promise<T> =>
  new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });

const sessionRange = (): IDBKeyRange => IDBKeyRange.bound(['session'], ['session', []]);

let segmenter: Intl.Segmenter | undefined;
function graphemes(text: string): string[] {
  if (typeof Intl !== 'undefined' && 'Segmenter' in Intl) {
    segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
    return Array.from(segmenter.segment(text), (s) => s.segment);
  }
  return Array.from(text);
}

const squash = (text: string): string => text.replace(/\s+/g, ' ');

/**
 * The snippet around the first match of `query` (already in {@link searchForm}) in `text`, cut on grapheme
 * boundaries; `undefined` when it does not match. Each grapheme is compared in its search form, so a
 * match never splits an emoji or a letter with its accent.
 */
export function snippetOf(text: string, query: string): SearchSnippet | undefined {
  if (query === '' || !searchForm(text).includes(query)) return undefined;
  const parts = graphemes(text);
  // the search form of the whole text, built grapheme by grapheme, with where each grapheme starts in it
  let folded = '';
  const starts: number[] = [];
  for (const g of parts) {
    starts.push(folded.length);
    const f = searchForm(g);
    folded += f === ' ' && folded.endsWith(' ') ? '' : f;
  }
  const at = folded.indexOf(query);
  if (at < 0) return { before: '', match: '', after: squash(parts.slice(0, 2 * CONTEXT).join('')).trim() };
  const end = at + query.length;
  let a = 0;
  while (a + 1 < parts.length && starts[a + 1]! <= at) a++;
  let b = a;
  while (b < parts.length && starts[b]! < end) b++;
  const from = Math.max(0, a - CONTEXT);
  const to = Math.min(parts.length, b + CONTEXT);
  const before = squash(parts.slice(from, a).join('')).trimStart();
  const after = squash(parts.slice(b, to).join('')).trimEnd();
  return {
    before: from > 0 ? `…${before}` : before,
    match: squash(parts.slice(a, b).join('')),
    after: to < parts.length ? `${after}…` : after,
  };
}

/** The searchable texts of a message, in the order they are shown. */
function textsOf(message: ChatMessage): string[] {
  switch (message.role) {
    case 'user':
      return typeof message.content === 'string'
        ? [message.content]
        : message.content.flatMap((p) => (p.type === 'text' ? [p.text] : []));
    case 'assistant':
      return [message.content ?? '', ...(message.tool_calls ?? []).map((c) => c.function.arguments)];
    case 'tool':
      return [message.content];
    default:
      return [];
  }
}

function aborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason ?? new DOMException('The search was aborted', 'AbortError');
}

/**
 * Searches the sessions readable through `read` (see {@link SessionStore.search}): title hits first, then
 * message hits, each newest `updatedAt` first.
 */
export async function searchSessions(read: SearchRead, query: string, options: SessionSearchOptions = {}): Promise<SessionSearchHit[]> {
  const { signal } = options;
  const limit = options.limit ?? 50;
  const perConversation = Math.max(1, options.perConversation ?? 1);
  if (!Number.isSafeInteger(limit) || limit < 0) {
    throw new StoreError('invalid', `Session store search failed: limit must be a count, got ${String(limit)}`);
  }
  aborted(signal);
  const q = searchForm(query).trim();
  if (q === '' || limit === 0) return [];

  const [keys, values] = await read((store) => Promise.all([request(store.getAllKeys(sessionRange())), request(store.getAll(sessionRange()))]));
  aborted(signal);
  const sessions: SessionRecord[] = [];
  values.forEach((value: unknown, i) => {
    const id = (keys[i] as [string, string])[1];
    if (!sessionRecordProblem(value, id)) sessions.push(value as SessionRecord);
  });
  sessions.sort((x, y) => y.updatedAt - x.updatedAt);

  const hits: SessionSearchHit[] = [];
  const found = new Map<string, number>();
  for (const s of sessions) {
    const snippet = snippetOf(s.title, q);
    if (!snippet) continue;
    hits.push({ id: s.id, title: s.title, updatedAt: s.updatedAt, snippet });
    found.set(s.id, 1);
    if (hits.length >= limit) return hits;
  }

  for (const s of sessions) {
    let count = found.get(s.id) ?? 0;
    let from = 0;
    while (count < perConversation && from < s.messageCount) {
      aborted(signal);
      const range = IDBKeyRange.bound(['message', s.id, from], ['message', s.id, Infinity]);
      const [batchKeys, batch] = await read((store) =>
        Promise.all([request(store.getAllKeys(range, SEARCH_BATCH)), request(store.getAll(range, SEARCH_BATCH))]),
      );
      if (batch.length === 0) break;
      for (let i = 0; i < batch.length && count < perConversation; i++) {
        const record: unknown = batch[i];
        if (messageRecordProblem(record)) continue;
        const message = (record as MessageRecord).message;
        for (const text of textsOf(message)) {
          const snippet = snippetOf(text, q);
          if (!snippet) continue;
          const seq = (batchKeys[i] as [string, string, number])[2];
          hits.push({ id: s.id, title: s.title, updatedAt: s.updatedAt, seq, role: message.role as 'user' | 'assistant' | 'tool', snippet });
          count++;
          break;
        }
        if (hits.length >= limit) return hits;
      }
      from = (batchKeys[batchKeys.length - 1] as [string, string, number])[2] + 1;
    }
  }
  aborted(signal);
  return hits;
}
