/**
 * The stored shapes of the session store and their hand-written checks. Every record is plain
 * structured-clone data with a schema `version`, so a newer library can read (or refuse) older data.
 */
import type { ChatMessage } from '../agent/messages.js';
import { partsProblem, partsTranscript } from '../agent/content-parts.js';

/** The schema version written by this library. */
export const RECORD_VERSION = 1;

/** Which `Session` class a stored conversation came from. */
export type SessionKind = 'session' | 'sliding-window' | 'compacting';

/** One session's small meta record, key `["session", id]`. Rewritten at every write; its size does not grow. */
export interface SessionRecord {
  version: 1;
  id: string;
  title: string;
  /** Epoch milliseconds. */
  createdAt: number;
  /** Epoch milliseconds of the last write. */
  updatedAt: number;
  /** How many message records the session has (keys `["message", id, 0 .. messageCount - 1]`). */
  messageCount: number;
  /** Counts every write to the session. */
  revision: number;
  kind: SessionKind;
  systemPrompt: string | undefined;
}

/** One message, key `["message", id, seq]`; written once, never rewritten by `append`. */
export interface MessageRecord {
  version: 1;
  message: ChatMessage;
  /** Indices of the user message's parts whose data lives in blob records (their URL is empty here). */
  blobs?: number[];
}

/** The JSON file written by `export` and read by `import`. */
export interface SessionExport {
  format: 'pagent-web/session';
  version: 1;
  id: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  session: { version: 1; kind: SessionKind; systemPrompt: string | undefined; messages: ChatMessage[] };
}

/** The `format` field of an export file. */
export const EXPORT_FORMAT = 'pagent-web/session';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** True for a known {@link SessionKind}. */
export function isSessionKind(v: unknown): v is SessionKind {
  return v === 'session' || v === 'sliding-window' || v === 'compacting';
}

function toolCallProblem(call: unknown): string | undefined {
  if (!isObject(call)) return 'a tool call is not an object';
  if (typeof call.id !== 'string') return 'a tool call has no string id';
  if (call.type !== 'function') return 'a tool call type is not "function"';
  const fn = call.function;
  if (!isObject(fn) || typeof fn.name !== 'string' || typeof fn.arguments !== 'string') {
    return 'a tool call has no function {name, arguments}';
  }
  return undefined;
}

/** Says what is wrong with a chat message, or `undefined` when it is a valid {@link ChatMessage}. */
export function messageProblem(m: unknown): string | undefined {
  if (!isObject(m)) return 'not an object';
  switch (m.role) {
    case 'system':
      return typeof m.content === 'string' ? undefined : 'system content is not a string';
    case 'user': {
      if (typeof m.content === 'string') return undefined;
      const problem = partsProblem(m.content);
      return problem && `user ${problem}`;
    }
    case 'assistant': {
      if (typeof m.content !== 'string' && m.content !== null) return 'assistant content is not a string or null';
      if (m.reasoning_content !== undefined && typeof m.reasoning_content !== 'string') {
        return 'reasoning_content is not a string';
      }
      if (m.tool_calls === undefined) return undefined;
      if (!Array.isArray(m.tool_calls)) return 'tool_calls is not an array';
      for (const call of m.tool_calls) {
        const problem = toolCallProblem(call);
        if (problem) return problem;
      }
      return undefined;
    }
    case 'tool':
      if (typeof m.tool_call_id !== 'string') return 'tool message has no tool_call_id';
      return typeof m.content === 'string' ? undefined : 'tool content is not a string';
    default:
      return 'unknown role';
  }
}

/** Says what is wrong with a list of messages (naming the first bad index), or `undefined`. */
export function messagesProblem(messages: unknown): string | undefined {
  if (!Array.isArray(messages)) return 'messages is not an array';
  for (let i = 0; i < messages.length; i++) {
    const problem = messageProblem(messages[i]);
    if (problem) return `message ${i}: ${problem}`;
  }
  return undefined;
}

/** Says what is wrong with a stored meta record, or `undefined`. */
export function sessionRecordProblem(r: unknown, id: string): string | undefined {
  if (!isObject(r)) return 'the session record is not an object';
  if (r.version !== RECORD_VERSION) return `the session record has schema version ${String(r.version)}, expected ${RECORD_VERSION}`;
  if (r.id !== id) return 'the session record belongs to another id';
  if (typeof r.title !== 'string') return 'the title is not a string';
  if (!isTime(r.createdAt) || !isTime(r.updatedAt)) return 'the timestamps are not numbers';
  if (!isCount(r.messageCount) || !isCount(r.revision)) return 'the message count or revision is not a count';
  if (!isSessionKind(r.kind)) return 'the session kind is unknown';
  if (r.systemPrompt !== undefined && typeof r.systemPrompt !== 'string') return 'the system prompt is not a string';
  return undefined;
}

/** Says what is wrong with a stored message record, or `undefined`. */
export function messageRecordProblem(r: unknown): string | undefined {
  if (!isObject(r)) return 'the message record is not an object';
  if (r.version !== RECORD_VERSION) return `the message record has schema version ${String(r.version)}, expected ${RECORD_VERSION}`;
  if (r.blobs !== undefined && !(Array.isArray(r.blobs) && r.blobs.every(isCount))) return 'the attachment list is not a list of part indices';
  return messageProblem(r.message);
}

/** Says what is wrong with a parsed export file, or `undefined` when it is a valid {@link SessionExport}. */
export function exportProblem(f: unknown): string | undefined {
  if (!isObject(f)) return 'the file is not a JSON object';
  if (f.format !== EXPORT_FORMAT) return `the file is not a ${EXPORT_FORMAT} export`;
  if (f.version !== 1) return `the export has version ${String(f.version)}, expected 1`;
  if (typeof f.id !== 'string' || f.id === '') return 'the export has no session id';
  if (typeof f.title !== 'string') return 'the title is not a string';
  if (!isTime(f.createdAt) || !isTime(f.updatedAt)) return 'the timestamps are not numbers';
  const s = f.session;
  if (!isObject(s)) return 'the export has no session';
  if (s.version !== 1) return `the session has version ${String(s.version)}, expected 1`;
  if (!isSessionKind(s.kind)) return 'the session kind is unknown';
  if (s.systemPrompt !== undefined && typeof s.systemPrompt !== 'string') return 'the system prompt is not a string';
  return messagesProblem(s.messages);
}

/** A short title from the first user message: whitespace collapsed, cut to 80 characters. */
export function titleFrom(messages: readonly ChatMessage[]): string {
  const first = messages.find((m) => m.role === 'user');
  if (!first) return '';
  const text = partsTranscript(first.content).replace(/\s+/g, ' ').trim();
  const chars = Array.from(text);
  return chars.length > 80 ? `${chars.slice(0, 79).join('')}…` : text;
}
