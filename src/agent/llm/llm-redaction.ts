/**
 * An `LLM`'s secrets kept out of what it reports: the model's own output (deltas, whole steps) and the
 * errors it throws, redacted with the client's redactor (see `createRedactor`).
 */
import { HttpError, PagentError } from '../../errors.js';
import type { Redactor, StreamRedactor } from '../redact.js';
import type { LLMStreamEvent } from './llm-options.js';

/**
 * The model's own output with the secrets redacted: deltas through stream redactors (a key cut across
 * deltas is still caught; only a tail that could start one is held back), the step's fields whole.
 */
export async function* redactedStream<R>(
  redactor: Redactor,
  source: AsyncGenerator<LLMStreamEvent, R, undefined>,
  text: StreamRedactor,
  reasoning: StreamRedactor,
): AsyncGenerator<LLMStreamEvent, R, undefined> {
  if (redactor.empty) return yield* source;
  let finished = false;
  const flush = function* (): Generator<LLMStreamEvent, void, undefined> {
    const t = text.end();
    if (t !== '') yield { type: 'text', text: t };
    const r = reasoning.end();
    if (r !== '') yield { type: 'reasoning', text: r };
  };
  try {
    for (;;) {
      let next: IteratorResult<LLMStreamEvent, R>;
      try {
        next = await source.next();
      } catch (err) {
        finished = true;
        yield* flush();
        throw err;
      }
      if (next.done) {
        finished = true;
        return next.value;
      }
      const event = next.value;
      if (event.type === 'step') {
        yield* flush();
        const { step } = event;
        yield {
          type: 'step',
          step: {
            ...step,
            content: redactor.redact(step.content),
            reasoning_content: redactor.redact(step.reasoning_content),
            tool_calls: step.tool_calls.map((c) => ({
              ...c,
              function: { name: redactor.redact(c.function.name), arguments: redactor.redact(c.function.arguments) },
            })),
          },
        };
      } else {
        const safe = (event.type === 'text' ? text : reasoning).push(event.text);
        if (safe !== '') yield { type: event.type, text: safe };
      }
    }
  } finally {
    if (!finished) await source.return(undefined as R).catch(() => undefined);
  }
}

// A new error rather than an edited message: the stack captured at construction repeats the message.
export function redactError(redactor: Redactor, err: unknown): unknown {
  if (!(err instanceof Error)) return err;
  const message = redactor.redact(err.message);
  if (message === err.message) return err;
  if (err instanceof HttpError) return new HttpError(message, err.status, err.where);
  if (err instanceof PagentError) return new PagentError(message, { code: err.code, status: err.status, where: err.where });
  return new PagentError(message, { code: 'provider', where: 'llm' });
}
