/**
 * A model server that ignores `stream: true` answers with one chat.completion object (or an error object)
 * instead of an event stream. The `LLM` loads this module by `import()` when a response turns out to be
 * such a body (a JSON `Content-Type`, or a body without a single event-stream message): streamed answers
 * never download it.
 */
// Types only: value imports of modules the client's own chunk holds would make bundlers split them into
// chunks of their own that every page loads; the client hands them in.
import type { PagentError } from '../../errors.js';
import type { AssembledStep, AssemblerDelta, createChunkAssembler } from './chunk-assembler.js';

/** What the client hands in. */
export interface JsonBodyContext {
  /** The endpoint, for the message (`POST <url>`). */
  url: string;
  reasoningTags: boolean | undefined;
  createChunkAssembler: typeof createChunkAssembler;
  PagentError: typeof PagentError;
}

/** The text of a body received in parts. */
export function bodyText(parts: Uint8Array[]): string {
  let length = 0;
  for (const p of parts) length += p.byteLength;
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const p of parts) {
    bytes.set(p, offset);
    offset += p.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/**
 * The deltas and the step of a JSON body's text (see {@link bodyText}), as the chunk assembler reads a
 * chat.completion object.
 *
 * @throws {PagentError} `code: "provider"` when the body is not JSON, or is an error object.
 */
export function fromJsonBody(text: string, context: JsonBodyContext): { deltas: AssemblerDelta[]; step: AssembledStep } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    throw new context.PagentError(`The response of POST ${context.url} is neither an event stream nor valid JSON: ${text.slice(0, 200)}`, {
      code: 'provider',
      where: 'llm',
      cause,
    });
  }
  const assembler = context.createChunkAssembler({ reasoningTags: context.reasoningTags });
  const deltas = assembler.push(parsed);
  deltas.push(...assembler.end());
  return { deltas, step: assembler.result() };
}
