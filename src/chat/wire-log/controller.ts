/**
 * The element's raw wire log: the lines a `src` run received (or the events given to the element, written
 * as pagent lines), each marked with the decode error it caused. Nothing is kept while the `wire-log`
 * switch is off (a line can hold a large `StepEnd` / `RunEnd`); at least the newest 2,000 lines are kept,
 * trimmed in bulk so that keeping them costs O(1) per line. The drawer renders them only while open; it
 * opens at the newest line and follows new ones, until the reader scrolls up (back at the end, it follows
 * again), as the timeline does.
 */
import { nothing, type ReactiveController, type ReactiveControllerHost } from 'lit';
import { WireDecodeError, type PagentError } from '../../errors.js';
import { encodeEventLine } from '../../wire/codec.js';
import type { UnknownEvent, WireEvent } from '../../wire/events.js';
import type { PagentChatStrings } from '../i18n.js';
import { renderWireLog, type WireLogLine } from './view.js';

/** The lines the wire log keeps at least (oldest dropped first, in bulk). */
const WIRE_LOG_LIMIT = 2000;

export class WireLog implements ReactiveController {
  private lines: WireLogLine[] = [];
  private count = 0;
  private open = false;
  /** The list shows its end: new lines scroll it down. */
  private following = true;
  /** Lines came (or the drawer opened) since the list was last scrolled to its end. */
  private grown = false;

  constructor(private readonly host: ReactiveControllerHost & { readonly wireLog: boolean; readonly renderRoot: ParentNode }) {
    host.addController(this);
  }

  private readonly handleScroll = (list: Element): void => {
    this.following = list.scrollHeight - list.scrollTop - list.clientHeight <= 1;
  };

  hostUpdated(): void {
    if (!this.grown) return;
    this.grown = false;
    const list = this.following && this.host.renderRoot.querySelector('.wire-lines');
    if (list) list.scrollTop = list.scrollHeight;
  }

  /** An event that came without a line of its own: shown as its pagent line, written only when shown. */
  event(event: WireEvent | UnknownEvent): void {
    let text: string | undefined;
    this.add({
      n: ++this.count,
      get text() {
        return (text ??= encodeEventLine(event).slice(0, -1));
      },
    });
  }

  /** A raw line (an NDJSON line, an SSE message's data) as received. */
  line(text: string): void {
    this.add({ n: ++this.count, text });
  }

  /** The last line could not be decoded: `error` says why. */
  markError(error: string): void {
    if (!this.host.wireLog) return;
    const last = this.lines[this.lines.length - 1];
    if (last) last.error = error;
    this.host.requestUpdate();
  }

  /**
   * A document of an agent's response that could not be decoded or applied (a `RemoteAgent`'s
   * `onDecodeError`): its raw text when the error has it, marked with why, as `src`'s undecodable lines are.
   */
  problem(error: PagentError): void {
    this.line(error instanceof WireDecodeError ? error.line : '');
    this.markError(error.message);
  }

  /** Forgets every line (a new conversation). */
  clear(): void {
    this.lines = [];
  }

  /** The drawer, while the `wire-log` switch is on. */
  render(strings: PagentChatStrings) {
    if (!this.host.wireLog) return nothing;
    return renderWireLog({
      strings,
      lines: this.lines,
      open: this.open,
      onToggle: (open) => {
        if (open && !this.open) this.following = this.grown = true;
        this.open = open;
        this.host.requestUpdate();
      },
      onScroll: this.handleScroll,
    });
  }

  private add(line: WireLogLine): void {
    if (!this.host.wireLog) return;
    this.lines.push(line);
    if (this.lines.length > 2 * WIRE_LOG_LIMIT) this.lines = this.lines.slice(-WIRE_LOG_LIMIT);
    if (this.open) this.grown = true;
    this.host.requestUpdate();
  }
}
