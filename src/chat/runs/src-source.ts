/**
 * The `src` run source: POSTs each message to a URL and reads the wire stream it answers with. Its client
 * (./src-client.ts: the `WireClient` with its decoder and framing) is a chunk fetched once `src` is set,
 * so a page that runs an agent or its own client never loads it. One source per URL keeps the server's
 * `X-Session-Id` across messages. A chunk that cannot be fetched fails the run with a network error; the
 * next message fetches it again.
 */
import { PagentError, type WireDecodeError } from '../../errors.js';
import type { UnknownEvent, WireEvent } from '../../wire/events.js';
import { lazyChunk } from '../lazy-chunk.js';
import type { ChatAttachment } from '../attachments/types.js';
import type { ChatClient } from './client-source.js';
import type { ChatBody } from './request-body.js';
import type { ChatRunSource, RunRequest } from './run-source.js';
import type { RunSource } from './run-controller.js';

const loadSrcClient = lazyChunk(() => import('./src-client.js'));

/** What tells a server's author about lines its stream got wrong (./decode-faults.ts), on the first one. */
const loadDecodeFaults = lazyChunk(() => import('./decode-faults.js'));

/** Fetches the `src` client's chunk ahead of the first message (once `src` is set). */
export function preloadSrcClient(): void {
  void loadSrcClient();
}

/** The element's side of a `src` source. */
export interface SrcSourceOptions {
  /** The request body of a message. */
  body: ChatBody;
  /** Each line as received (the wire log). */
  onLine(line: string): void;
  /** A line the event schema rejects: marked in the wire log, and reported once per fault. */
  onDecodeError(err: WireDecodeError): void;
  /** Dispatches a `pagent-error`. */
  report(error: PagentError): boolean;
}

/** Runs each message as a POST to one `src` URL. */
export class SrcSource implements ChatRunSource {
  readonly logsLines = true;
  private client: ChatClient | undefined;
  private reportFault: ((err: WireDecodeError) => void) | undefined;

  constructor(
    readonly url: string,
    private readonly options: SrcSourceOptions,
  ) {}

  open({ text, attachments }: RunRequest): RunSource {
    const client = this.client;
    if (client) return (signal) => this.stream(client, text, attachments, signal);
    return (signal) => this.connectThenStream(text, attachments, signal);
  }

  private stream(client: ChatClient, text: string, attachments: readonly ChatAttachment[], signal: AbortSignal): AsyncIterable<WireEvent | UnknownEvent> {
    return client.stream(this.options.body(text, client.sessionId, attachments), { signal });
  }

  /** The first message before the chunk arrived: waits for it (a user's action fetches it at once). */
  private async *connectThenStream(text: string, attachments: readonly ChatAttachment[], signal: AbortSignal): AsyncIterable<WireEvent | UnknownEvent> {
    const chunk = await loadSrcClient(true);
    if (!chunk) {
      throw new PagentError('The part of <pagent-chat> that reads a src stream could not be loaded: check the connection and send again.', { code: 'network', where: 'src' });
    }
    if (signal.aborted) return;
    this.client ??= chunk.createSrcClient(this.url, {
      onLine: (line) => this.options.onLine(line),
      onDecodeError: (err) => {
        this.options.onDecodeError(err);
        // a rare path (a server's bug), so the reporter is a chunk of its own; faults keep their order
        void loadDecodeFaults().then((m) => m && (this.reportFault ??= m.createDecodeFaultReporter(this.url, (e) => void this.options.report(e)))(err));
      },
    });
    yield* this.stream(this.client, text, attachments, signal);
  }
}
