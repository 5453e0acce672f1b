/**
 * Tells the author of a `src` server about the lines its stream got wrong. A line the event schema rejects
 * (`TurnEnd` without `stopped`, a `TextDelta` whose `text` is a number) is skipped by the decoder and
 * marked in the wire log; that alone is easy to miss, so each fault is also told once on the console and
 * handed to the page as a `pagent-error` (`code: "decode"`). A server that makes the same mistake on every
 * line gets one warning per method and field, not one per line.
 */
import type { WireDecodeError } from '../../errors.js';

/**
 * What makes two faults the same: for a line with bad params, the method and the field (the message
 * without its line number, e.g. `TurnEnd: missing "stopped"`); for JSON that does not parse, the reason
 * alone (the parser's message names a position).
 */
function faultKey(err: WireDecodeError): string {
  return err.reason === 'invalid-json' ? err.reason : err.message.replace(/ \(line \d+\)$/, '');
}

/**
 * Returns the `onDecodeError` of one `src` URL's stream: the first time a fault is seen it warns on the
 * console, naming the URL, the method and the field (the error's message) and the line as received, and
 * calls `report` with the error; later lines with the same fault are left to the wire log.
 */
export function createDecodeFaultReporter(url: string, report: (err: WireDecodeError) => void): (err: WireDecodeError) => void {
  const seen = new Set<string>();
  return (err) => {
    const key = faultKey(err);
    if (seen.has(key)) return;
    seen.add(key);
    const kept = /: dropped "/.test(err.message);
    console.warn(
      `<pagent-chat>: ${url} sent a line that is not a valid event: ${err.message}. ` +
        `${kept ? 'The event was kept without that field.' : 'The line was skipped.'} ` +
        `Later lines with the same fault are marked in the wire log only. The line: ${err.line}`,
    );
    report(err);
  };
}
