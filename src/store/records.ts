/**
 * The stored shapes of the session store and their hand-written checks. Every record is plain
 * structured-clone data with a schema `version`, so a newer library can read (or refuse) older data.
 */
import type { ChatMessage } from '../agent/messages.js';
import { partsTranscript } from '../agent/content-parts.js';
import { conversationProblem, followCalls, messageProblem, unansweredProblem, type OpenCalls } from './message-checks.js';
import type { SessionTree } from './tree.js';
import { feedbackProblem, type MessageFeedback } from './feedback.js';

/**
 * The schema version written by this library. Version 2 made conversations trees (a message record names
 * its `parent`; the session record its `head` and fork `choices`); version 1 records are still read (a
 * message's parent is the one before it) and a store upgrades version 1 session records when it opens.
 */
export const RECORD_VERSION = 2;

/** Which `Session` class a stored conversation came from. */
export type SessionKind = 'session' | 'sliding-window' | 'compacting';

/** One session's small meta record, key `["session", id]`. Rewritten at every write; its size does not grow. */
export interface SessionRecord {
  version: 1 | 2;
  id: string;
  title: string;
  /** Epoch milliseconds. */
  createdAt: number;
  /** Epoch milliseconds of the last write. */
  updatedAt: number;
  /** How many messages the active path has (version 1: how many message records). */
  messageCount: number;
  /** Version 2: the `seq` the next message gets; message records are keys `["message", id, 0 .. nextSeq - 1]`. */
  nextSeq?: number;
  /** Version 2: the last message of the active path, `-1` when there is none. */
  head?: number;
  /** Version 2: the chosen child at each fork, by the parent's seq (`-1` for first messages); see `SessionTree`. */
  choices?: Record<number, number>;
  /** Counts every write to the session. */
  revision: number;
  kind: SessionKind;
  systemPrompt: string | undefined;
}

/** One message, key `["message", id, seq]`; written once, never rewritten by `append`. */
export interface MessageRecord {
  version: 1 | 2;
  message: ChatMessage;
  /** Version 2: the seq of the message before it on its path, `null` for a first message (version 1: `seq - 1`). */
  parent?: number | null;
  /** Version 2: how many messages come before it on its path (version 1: `seq`). */
  depth?: number;
  /** Indices of the user message's parts whose data lives in blob records (their URL is empty here). */
  blobs?: number[];
  /** The reader's rating of this answer (see `SessionStore.setFeedback`); a record read with a bad one reads without it. */
  feedback?: MessageFeedback;
}

/** The JSON file written by `export` and read by `import`. */
export interface SessionExport {
  format: 'pagent-web/session';
  /** 2 since conversations are trees; files of version 1 (no `tree`) still import. */
  version: 1 | 2;
  id: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  /** The active path (what a version 1 reader knows of the conversation). */
  session: { version: 1; kind: SessionKind; systemPrompt: string | undefined; messages: ChatMessage[] };
  /** Version 2: every branch; `nodes` by ascending seq 0 .. n - 1, each parent before its children. */
  tree?: SessionTree;
}

/** The `format` field of an export file. */
export const EXPORT_FORMAT = 'pagent-web/session';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** The farthest a `Date` reaches from the epoch, in milliseconds (ECMAScript's time value range). */
export const MAX_TIME = 8.64e15;

/**
 * True for a time the store keeps: whole epoch milliseconds that a `Date` can hold, so that every stored
 * time formats as a date (`1e300` is a finite number, but `new Date(1e300)` is an Invalid Date).
 */
export const isTime = (v: unknown): v is number => Number.isSafeInteger(v) && Math.abs(v as number) <= MAX_TIME;

/** Says which of a record's or file's two times is not a {@link isTime} time, or `undefined`. */
function timesProblem(r: Record<string, unknown>): string | undefined {
  for (const field of ['createdAt', 'updatedAt']) {
    const v = r[field];
    if (!isTime(v)) return `${field} is not a time (whole epoch milliseconds within ±${MAX_TIME}): ${typeof v === 'number' ? String(v) : typeof v}`;
  }
  return undefined;
}

/** True for a known {@link SessionKind}. */
export function isSessionKind(v: unknown): v is SessionKind {
  return v === 'session' || v === 'sliding-window' || v === 'compacting';
}

/** Says what is wrong with a stored meta record, or `undefined`. */
export function sessionRecordProblem(r: unknown, id: string): string | undefined {
  if (!isObject(r)) return 'the session record is not an object';
  if (r.version !== 1 && r.version !== 2) return `the session record has schema version ${String(r.version)}, expected 1 or 2`;
  if (r.id !== id) return 'the session record belongs to another id';
  if (typeof r.title !== 'string') return 'the title is not a string';
  const times = timesProblem(r);
  if (times) return `the session record's ${times}`;
  if (!isCount(r.messageCount) || !isCount(r.revision)) return 'the message count or revision is not a count';
  if (!isSessionKind(r.kind)) return 'the session kind is unknown';
  if (r.systemPrompt !== undefined && typeof r.systemPrompt !== 'string') return 'the system prompt is not a string';
  if (r.version === 2) {
    if (!isCount(r.nextSeq) || !(r.head === -1 || (isCount(r.head) && r.head < r.nextSeq))) return 'the head or next seq is not a count';
    if (!isObject(r.choices) || !Object.values(r.choices).every(isCount)) return 'the branch choices are not counts';
  }
  return undefined;
}

/** Says what is wrong with a stored message record, or `undefined`. */
export function messageRecordProblem(r: unknown): string | undefined {
  if (!isObject(r)) return 'the message record is not an object';
  if (r.version !== 1 && r.version !== 2) return `the message record has schema version ${String(r.version)}, expected 1 or 2`;
  if (r.version === 2 && !((r.parent === null || isCount(r.parent)) && isCount(r.depth))) return 'the parent or depth is not a count';
  if (r.blobs !== undefined && !(Array.isArray(r.blobs) && r.blobs.every(isCount))) return 'the attachment list is not a list of part indices';
  return messageProblem(r.message, true);
}

/** Says what is wrong with a parsed export file, or `undefined` when it is a valid {@link SessionExport}. */
export function exportProblem(f: unknown): string | undefined {
  if (!isObject(f)) return 'the file is not a JSON object';
  if (f.format !== EXPORT_FORMAT) return `the file is not a ${EXPORT_FORMAT} export`;
  if (f.version !== 1 && f.version !== 2) return `the export has version ${String(f.version)}, expected 1 or 2`;
  if (typeof f.id !== 'string' || f.id === '') return 'the export has no session id';
  if (typeof f.title !== 'string') return 'the title is not a string';
  const times = timesProblem(f);
  if (times) return `the export's ${times}`;
  const s = f.session;
  if (!isObject(s)) return 'the export has no session';
  if (s.version !== 1) return `the session has version ${String(s.version)}, expected 1`;
  if (!isSessionKind(s.kind)) return 'the session kind is unknown';
  if (s.systemPrompt !== undefined && typeof s.systemPrompt !== 'string') return 'the system prompt is not a string';
  return conversationProblem(s.messages) ?? (f.version === 2 ? treeProblem(f.tree) : undefined);
}

/** The fields of an export's tree node: `feedback` only where the reader rated the message. */
const NODE_FIELDS = ['seq', 'parent', 'message', 'feedback'];

/** Says what is wrong with an export's tree, or `undefined`. */
function treeProblem(t: unknown): string | undefined {
  if (!isObject(t) || !Array.isArray(t.nodes)) return 'the export of version 2 has no tree';
  const nodes = t.nodes as unknown[];
  // the tool calls waiting after each node, along its branch (a parent comes before its children)
  const open: OpenCalls[] = [];
  const hasChild: boolean[] = [];
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i];
    if (!isObject(n) || n.seq !== i) return `tree node ${i} is not message ${i}`;
    if (!(n.parent === null || (isCount(n.parent) && n.parent < i))) return `tree node ${i} has no parent before it`;
    const extra = Object.keys(n).find((key) => !NODE_FIELDS.includes(key));
    if (extra !== undefined) return `tree node ${i} has an unknown field ${JSON.stringify(extra).slice(0, 60)}`;
    const problem = messageProblem(n.message) ?? (n.feedback === undefined ? undefined : feedbackProblem(n.feedback));
    if (problem) return `tree node ${i}: ${problem}`;
    if (n.parent !== null) hasChild[n.parent] = true;
    const step = followCalls(n.parent === null ? undefined : open[n.parent], n.message as ChatMessage, i, 'tree node');
    if ('problem' in step) return `tree node ${i}: ${step.problem}`;
    open.push(step.open);
  }
  for (let i = 0; i < nodes.length; i++) {
    const waiting = hasChild[i] ? undefined : unansweredProblem(open[i], 'tree node');
    if (waiting) return waiting;
  }
  if (!(t.head === -1 || (isCount(t.head) && t.head < nodes.length))) return 'the tree head is not one of its nodes';
  if (!isObject(t.choices) || !Object.values(t.choices).every(isCount)) return 'the tree choices are not counts';
  return undefined;
}

/** A short title from the first user message: whitespace collapsed, cut to 80 characters. */
export function titleFrom(messages: readonly ChatMessage[]): string {
  const first = messages.find((m) => m.role === 'user');
  if (!first) return '';
  const text = partsTranscript(first.content).replace(/\s+/g, ' ').trim();
  const chars = Array.from(text);
  return chars.length > 80 ? `${chars.slice(0, 79).join('')}…` : text;
}
