/**
 * The strings of a part that arrives as a chunk of its own (dictation, read aloud, feedback, the context
 * meter): its defaults in English, Simplified Chinese and Japanese ride in its chunk, and the element's
 * `strings` override any of them like any other string.
 */
import type { LocaleName, PagentChatStrings } from './i18n.js';

/** The part's strings for `locale`: its defaults, with the element's overrides on top (strings only). */
export function featureStrings<K extends keyof PagentChatStrings>(
  defaults: Record<LocaleName, Record<K, string>>,
  locale: LocaleName,
  strings: PagentChatStrings,
): Record<K, string> {
  const out = { ...(defaults[locale] ?? defaults.en) };
  for (const key of Object.keys(out) as K[]) {
    const own = strings[key];
    if (typeof own === 'string') out[key] = own;
  }
  return out;
}
