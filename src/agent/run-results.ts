/**
 * What `run()` and `text()` make of a run's events, for every agent (`Agent`, `RemoteAgent`): the
 * `RunEnd` params, or the answer's text deltas, and a `PagentError` when the run failed.
 */
import { PagentError } from '../errors.js';
import type { ParamsOf, WireEvent } from '../wire/events.js';

/**
 * The run's `RunEnd` params once `saved` settles; a cancelled run resolves too.
 * @throws {PagentError} when the run failed (its `RunError`'s code, message, where and status).
 */
export async function runEndOf(events: AsyncIterable<WireEvent>, saved: () => Promise<void>, where: string): Promise<ParamsOf<'RunEnd'>> {
  let failure: ParamsOf<'RunError'> | undefined;
  let end: ParamsOf<'RunEnd'> | undefined;
  for await (const event of events) {
    if (event.method === 'RunError') failure = event.params;
    else if (event.method === 'RunEnd') end = event.params;
  }
  await saved();
  if (!end || end.stop_reason === 'error') throw PagentError.fromRunError(failure ?? { message: 'The run failed', code: 'provider', where });
  return end;
}

/** The answer's text deltas; after the last one, once `saved` settles, a `PagentError` when the run failed. */
export async function* textOf(events: AsyncIterable<WireEvent>, saved: () => Promise<void>): AsyncGenerator<string, void, undefined> {
  let failure: ParamsOf<'RunError'> | undefined;
  for await (const event of events) {
    if (event.method === 'TextDelta') yield event.params.text;
    else if (event.method === 'RunError') failure = event.params;
  }
  await saved();
  if (failure) throw PagentError.fromRunError(failure);
}

/**
 * The signal of one run: aborted when the caller's `signal` aborts (with its reason) or when the run ends
 * (`release`, which also stops listening to the caller's signal, so a long-lived signal keeps no run alive).
 */
export function linkedAbort(outer: AbortSignal | undefined): { signal: AbortSignal; release(): void } {
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(outer?.reason);
  if (outer?.aborted) controller.abort(outer.reason);
  else outer?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    release() {
      outer?.removeEventListener('abort', onAbort);
      controller.abort();
    },
  };
}
