/**
 * An in-memory equivalent of the `resumable-stream` package the AI SDK's resume recipe uses (which keeps
 * streams in Redis): `createNewResumableStream` reads a stream to its end whatever happens to the client
 * that asked for it, and `resumeExistingStream` gives a reader everything sent so far, then the rest as it
 * comes. Each chat's active stream id is kept until its stream ends, as the recipe's `activeStreamId`.
 */
interface Kept {
  chunks: string[];
  done: boolean;
  /** Readers waiting for the next chunk. */
  waiting: Set<() => void>;
}

export class ResumableStreams {
  private readonly streams = new Map<string, Kept>();
  /** The stream still being written for each chat id. */
  readonly active = new Map<string, string>();

  /** Keeps `stream` as `streamId` for `chatId`, reading it to its end in the background. */
  createNewResumableStream(chatId: string, streamId: string, stream: ReadableStream<string>): void {
    const kept: Kept = { chunks: [], done: false, waiting: new Set() };
    this.streams.set(streamId, kept);
    this.active.set(chatId, streamId);
    const wake = (): void => {
      for (const w of [...kept.waiting]) w();
      kept.waiting.clear();
    };
    void (async () => {
      const reader = stream.getReader();
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          kept.chunks.push(value);
          wake();
        }
      } finally {
        kept.done = true;
        if (this.active.get(chatId) === streamId) this.active.delete(chatId);
        wake();
      }
    })();
  }

  /** The chat's active stream from its first chunk, then live; `undefined` when it has none (answer 204). */
  resumeExistingStream(chatId: string): ReadableStream<string> | undefined {
    const streamId = this.active.get(chatId);
    const kept = streamId === undefined ? undefined : this.streams.get(streamId);
    if (!kept) return undefined;
    let at = 0;
    return new ReadableStream<string>({
      pull: async (controller) => {
        while (at >= kept.chunks.length && !kept.done) await new Promise<void>((r) => kept.waiting.add(r));
        if (at < kept.chunks.length) controller.enqueue(kept.chunks[at++]!);
        else controller.close();
      },
    });
  }
}
