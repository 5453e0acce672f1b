/**
 * Values the reducer reshapes for display: tool arguments indented, token counts read from a provider's
 * usage, whichever names it used.
 */
import type { Usage } from '../../wire/events.js';
import type { UsageSummary } from './items.js';

/**
 * The longest arguments text shown indented: parsing and indenting takes about as long as drawing, so
 * megabytes of arguments would block the page for the first lines of a card that draws only a slice.
 */
export const PRETTY_JSON_MAX = 100_000;

/** Indented JSON of `text` when it parses as JSON and has at most {@link PRETTY_JSON_MAX} characters, else `undefined`. */
export function prettyJson(text: string): string | undefined {
  if (text.length > PRETTY_JSON_MAX) return undefined;
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return undefined;
  }
}

/** `v` when it is a finite number. */
export const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** Reads token counts from OpenAI (`prompt_tokens`…) or Anthropic-style (`input_tokens`…) usage. */
export function summariseUsage(usage: Usage | null | undefined): UsageSummary | undefined {
  if (!usage) return undefined;
  const input = num(usage['prompt_tokens']) ?? num(usage['input_tokens']);
  const output = num(usage['completion_tokens']) ?? num(usage['output_tokens']);
  const total = num(usage['total_tokens']) ?? (input !== undefined && output !== undefined ? input + output : undefined);
  if (input === undefined && output === undefined && total === undefined) return undefined;
  return { input, output, total };
}
