/**
 * One interface for every way `<pagent-chat>` runs a message, as the AI SDK's `ChatTransport` is for
 * `useChat`: an agent (an in-browser `Agent` or a `RemoteAgent`), a client (a `WireClient`) or a `src` URL.
 * The element picks one per message (agent, then client, then src) and runs what it opens; each source
 * lives in a file of its own (./agent-source.ts, ./client-source.ts, ./src-source.ts).
 */
import type { ChatAttachment } from '../attachments/types.js';
import type { RunSource } from './run-controller.js';

/** A message to run. */
export interface RunRequest {
  readonly text: string;
  /** True when the user pressed Retry: the failed run's message runs again (its files too). */
  readonly retry: boolean;
  readonly attachments: readonly ChatAttachment[];
}

/** One way the element runs a message. */
export interface ChatRunSource {
  /** The events of a run of `request`, opened when the run starts. */
  open(request: RunRequest): RunSource;
  /**
   * True when the source shows the raw lines it receives in the wire log itself (`src`); the events of
   * other sources are logged as pagent lines.
   */
  readonly logsLines: boolean;
}
