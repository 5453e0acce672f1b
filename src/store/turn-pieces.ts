/**
 * The turn in flight of a conversation, saved while it streams: append-only pieces under
 * `["piece", id, n]`, each holding only what came since the piece before it (new answer text, new
 * reasoning, a tool call, an approval asked, a tool result), so a save costs the size of what is new and
 * never rewrites the answer so far. Any write of the conversation's messages (`append`, `save`,
 * `switchBranch`, `delete`) removes them in the same transaction: the turn they describe is then either
 * stored as messages or gone. Pieces left behind are those of a run the page did not finish (a reload, a
 * crash, a closed tab); {@link turnFromPieces} puts them back together.
 */
import type { ToolCall } from '../wire/events.js';
import { messageProblem } from './message-checks.js';

/** One piece of the turn in flight. */
export type TurnPiece =
  /** Answer text that followed the previous piece. */
  | { type: 'text'; text: string }
  /** Reasoning that followed the previous piece. */
  | { type: 'reasoning'; text: string }
  /** A tool call of the turn (as the model made it; a call already saved is not saved again). */
  | { type: 'call'; call: ToolCall }
  /** The user was asked to approve the call `id`. */
  | { type: 'approval'; id: string }
  /** The result of the call `id`. */
  | { type: 'result'; id: string; content: string; ok: boolean };

/** The record of one piece. */
export interface PieceRecord {
  version: 1;
  piece: TurnPiece;
}

/**
 * A turn a run left unfinished, as its saved pieces give it back: the answer text and reasoning so far,
 * the tool calls made, the results that came, and the calls that were waiting for the user's approval.
 */
export interface InterruptedTurn {
  /** The answer text so far. */
  content: string;
  /** The reasoning so far. */
  reasoning: string;
  /** The tool calls of the turn, in order. */
  calls: ToolCall[];
  /** The results that came, by call id. */
  results: Record<string, { content: string; ok: boolean }>;
  /** Calls that waited for the user's approval (and have no result). */
  awaiting: string[];
}

export type PieceKey = ['piece', string, number];
export const pieceKey = (id: string, n: number): PieceKey => ['piece', id, n];
export const pieceRange = (id: string): IDBKeyRange => IDBKeyRange.bound(['piece', id, 0], ['piece', id, Infinity]);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Says what is wrong with a piece, or `undefined` (the store refuses bad pieces and skips bad records). */
export function pieceProblem(piece: unknown): string | undefined {
  if (!isObject(piece)) return 'the piece is not an object';
  switch (piece.type) {
    case 'text':
    case 'reasoning':
      return typeof piece.text === 'string' ? undefined : `the ${piece.type} piece has no text`;
    case 'call':
      return messageProblem({ role: 'assistant', content: null, tool_calls: [piece.call] });
    case 'approval':
      return typeof piece.id === 'string' ? undefined : 'the approval piece has no call id';
    case 'result':
      return typeof piece.id === 'string' && typeof piece.content === 'string' && typeof piece.ok === 'boolean'
        ? undefined
        : 'the result piece has no call id, content or ok';
    default:
      return 'unknown piece type';
  }
}

/**
 * Puts pieces back together, in order: the texts joined, each call once, a result for a call that was
 * made, and the approvals still waiting. `undefined` when the pieces hold nothing (no text, reasoning or
 * call). A result or an approval for a call no piece made is left out.
 */
export function turnFromPieces(pieces: readonly TurnPiece[]): InterruptedTurn | undefined {
  const text: string[] = [];
  const reasoning: string[] = [];
  const calls: ToolCall[] = [];
  const results: InterruptedTurn['results'] = {};
  const asked = new Set<string>();
  const made = (id: string): boolean => calls.some((c) => c.id === id);
  for (const piece of pieces) {
    if (piece.type === 'text') text.push(piece.text);
    else if (piece.type === 'reasoning') reasoning.push(piece.text);
    else if (piece.type === 'call') {
      if (!made(piece.call.id)) calls.push(piece.call);
    } else if (piece.type === 'approval') {
      if (made(piece.id)) asked.add(piece.id);
    } else if (made(piece.id) && !Object.hasOwn(results, piece.id)) results[piece.id] = { content: piece.content, ok: piece.ok };
  }
  const content = text.join('');
  const thought = reasoning.join('');
  if (content === '' && thought === '' && calls.length === 0) return undefined;
  const awaiting = calls.filter((c) => asked.has(c.id) && !Object.hasOwn(results, c.id)).map((c) => c.id);
  return { content, reasoning: thought, calls, results, awaiting };
}
