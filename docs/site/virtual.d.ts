// The modules docs/tools/site-plugin.ts makes.
declare module 'virtual:docs/pages' {
  /** Each page's URL → a loader for its Markdown. */
  export const sources: Record<string, () => Promise<string>>;
}
declare module 'virtual:docs/search' {
  import type { SearchEntry } from '../tools/search-index.js';
  const entries: SearchEntry[];
  export default entries;
}
declare module 'virtual:docs/sizes' {
  const markdown: string;
  export default markdown;
}
