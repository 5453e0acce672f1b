import type { AgentStore } from '../../../../src/agent/agent.js';
import type { ChatMessage } from '../../../../src/agent/messages.js';
import { turnFromPieces, type TurnPiece } from '../../../../src/store/turn-pieces.js';

/**
 * An in-memory store with the session store's rules for the turn in flight: `append` and `save` remove
 * the conversation's pieces, `savePieces` at 0 replaces them. It counts what it is asked to write.
 */
export function pieceStore(inFlightSaveMs = 0) {
  const messages = new Map<string, ChatMessage[]>();
  const pieces = new Map<string, Map<number, TurnPiece>>();
  const counts = { appends: 0, pieceWrites: 0, piecesWritten: 0, charsWritten: 0, clears: 0 };
  const store: AgentStore & { inFlightSaveMs: number } = {
    inFlightSaveMs,
    async load(id) {
      const list = messages.get(id);
      return list ? { messages: structuredClone(list), seqs: list.map((_, i) => i) } : undefined;
    },
    async append(id, list, options) {
      counts.appends += 1;
      const stored = messages.get(id) ?? [];
      if (options?.parent !== undefined) stored.length = options.parent === null ? 0 : options.parent + 1;
      const from = stored.length;
      stored.push(...structuredClone(list));
      messages.set(id, stored);
      pieces.delete(id);
      return { from, head: stored.length - 1 };
    },
    async save(id, session) {
      messages.set(id, structuredClone(session.toJSON().messages));
      pieces.delete(id);
    },
    async savePieces(id, list, at) {
      counts.pieceWrites += 1;
      if (at === 0) {
        if (list.length === 0) counts.clears += 1;
        pieces.delete(id);
      }
      const held = pieces.get(id) ?? new Map<number, TurnPiece>();
      list.forEach((piece, i) => {
        held.set(at + i, structuredClone(piece));
        counts.piecesWritten += 1;
        counts.charsWritten += piece.type === 'text' || piece.type === 'reasoning' ? piece.text.length : piece.type === 'result' ? piece.content.length : 0;
      });
      pieces.set(id, held);
    },
    async loadTurn(id) {
      const held = pieces.get(id);
      return held ? turnFromPieces([...held.entries()].sort((a, b) => a[0] - b[0]).map(([, p]) => p)) : undefined;
    },
  };
  /** The pieces held for `id`, in order. */
  const held = (id: string): TurnPiece[] => [...(pieces.get(id)?.entries() ?? [])].sort((a, b) => a[0] - b[0]).map(([, p]) => p);
  return { store, messages, held, counts };
}
