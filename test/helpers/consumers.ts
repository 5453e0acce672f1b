/**
 * The protocols' own consumers, fed with bytes we wrote: `@ag-ui/client`'s `HttpAgent` (its SSE parsing,
 * chunk expansion, `verifyEvents` and message reducer) and the AI SDK's `parseJsonEventStream` with
 * `uiMessageChunkSchema` (what `DefaultChatTransport` does) then `readUIMessageStream`.
 */
import { HttpAgent } from '@ag-ui/client';
import type { Message } from '@ag-ui/core';
import { parseJsonEventStream, readUIMessageStream, uiMessageChunkSchema, type UIMessage, type UIMessageChunk } from 'ai';

/** What an AG-UI client made of a stream: its messages, and how each run ended. */
export interface AgUiOutcome {
  messages: Message[];
  /** Per run: `success`, `cancelled`, `interrupt` or `error: <message>`. */
  ends: string[];
  /** The client's own rejection (a stream it refused), if any. */
  rejected: string | undefined;
}

/** Runs `@ag-ui/client`'s `HttpAgent` against a response with this body. */
export async function agUiConsume(body: string): Promise<AgUiOutcome> {
  const agent = new HttpAgent({
    url: 'http://127.0.0.1:9/agent',
    fetch: (async () => new Response(body, { headers: { 'content-type': 'text/event-stream' } })) as typeof fetch,
  });
  const ends: string[] = [];
  let rejected: string | undefined;
  try {
    await agent.runAgent(
      {},
      {
        onRunFinishedEvent: (params) => void ends.push(params.outcome),
        onRunErrorEvent: ({ event }) => void ends.push(`error: ${event.message}`),
      },
    );
  } catch (err) {
    rejected = err instanceof Error ? err.message : String(err);
  }
  return { messages: agent.messages, ends, rejected };
}

/** Reads a UI message stream body as `useChat` does; one message per run (each `start` carries an id). */
export async function aiSdkConsume(body: string): Promise<{ messages: UIMessage[]; errors: string[] }> {
  const bytes = new Response(body).body!;
  const chunks = parseJsonEventStream({ stream: bytes, schema: uiMessageChunkSchema }).pipeThrough(
    new TransformStream<{ success: boolean; value?: unknown; error?: unknown }, UIMessageChunk>({
      transform(result, controller) {
        if (!result.success) throw result.error;
        controller.enqueue(result.value as UIMessageChunk);
      },
    }),
  );
  const errors: string[] = [];
  const last = new Map<string, UIMessage>();
  for await (const message of readUIMessageStream({ stream: chunks, onError: (error) => void errors.push(error instanceof Error ? error.message : String(error)) })) {
    last.set(message.id, message);
  }
  return { messages: [...last.values()], errors };
}
