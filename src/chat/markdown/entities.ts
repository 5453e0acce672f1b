/**
 * Named character references (CommonMark §2.5 uses the HTML5 list of 2,125 names). The ~40 that model
 * text uses most (markup-significant, typography, arrows) are built in; the whole list
 * is a separate 11 kB (min+gzip) chunk loaded the first time a text names one that is not built in. Until it arrives such a
 * reference reads as written; renderers that met one re-render when it lands ({@link onEntitiesLoaded}).
 */
import { COMMON_ENTITIES } from './entities-common.js';

const parse = (packed: string): Map<string, string> => {
  const map = new Map<string, string>();
  const parts = packed.split(' ');
  for (let i = 0; i + 1 < parts.length; i += 2) map.set(parts[i]!, parts[i + 1]!);
  return map;
};

const common = parse(COMMON_ENTITIES);
let table: Map<string, string> | undefined;
let loading: Promise<void> | undefined;
const listeners = new Set<() => void>();

/** How many look-ups so far could not be answered because the full table was not loaded yet. */
export let unresolvedLookups = 0;

/**
 * The value of the named reference `&name;`, or `null` when HTML5 has no such name. `undefined` means
 * the name is not a common one and the full table is still loading (it is requested by this call).
 */
export function decodeReference(name: string): string | null | undefined {
  const value = common.get(name);
  if (value !== undefined) return value;
  if (table) return table.get(name) ?? null;
  unresolvedLookups += 1;
  void loadEntities();
  return undefined;
}

/** Loads the full table (once); resolves when every named reference decodes. */
export function loadEntities(): Promise<void> {
  loading ??= import('./entities-table.js').then(
    (m) => {
      table = parse(m.ENTITY_TABLE);
      for (const listener of [...listeners]) listener();
    },
    () => {
      loading = undefined; // a failed chunk load is retried by the next reference that needs it
    },
  );
  return loading;
}

/** Calls `listener` once the full table has loaded; returns the unsubscribe function. */
export function onEntitiesLoaded(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
