/**
 * Context windows (in tokens) of models the provider presets are often used with, by model name prefix,
 * as their providers publish them; the longest matching prefix wins. A model not listed has no meter
 * unless the page sets `contextWindow`.
 */
const WINDOWS: ReadonlyArray<readonly [string, number]> = [
  ['gpt-5', 400_000],
  ['gpt-4.1', 1_047_576],
  ['gpt-4o', 128_000],
  ['gpt-4-turbo', 128_000],
  ['o1', 200_000],
  ['o3', 200_000],
  ['o4-mini', 200_000],
  ['claude-', 200_000],
  ['deepseek-chat', 128_000],
  ['deepseek-reasoner', 128_000],
  ['kimi-k2', 131_072],
  ['moonshot-v1-8k', 8_192],
  ['moonshot-v1-32k', 32_768],
  ['moonshot-v1-128k', 131_072],
  ['mistral-large', 131_072],
  ['mistral-small', 131_072],
  ['llama-3.1', 131_072],
  ['llama-3.3', 131_072],
  ['gemini-', 1_048_576],
];

/** The context window of `model` (case-insensitive prefix match, a provider prefix like `openai/` ignored), or `undefined`. */
export function knownContextWindow(model: unknown): number | undefined {
  if (typeof model !== 'string') return undefined;
  const name = model.toLowerCase().replace(/^[\w.-]+\//, '');
  let best: readonly [string, number] | undefined;
  for (const entry of WINDOWS) if (name.startsWith(entry[0]) && (!best || entry[0].length > best[0].length)) best = entry;
  return best?.[1];
}
