/**
 * Heading anchors as GitHub makes them, so a link such as `wire.md#bad-input` works both on GitHub and
 * on the site (and matches the anchors typedoc-plugin-markdown links to): lower case, punctuation other
 * than `-` and `_` dropped, spaces as `-`, a repeated anchor suffixed `-1`, `-2`, ….
 */
export function createSlugger(): (heading: string) => string {
  const seen = new Map<string, number>();
  return (heading) => {
    const base = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base);
    seen.set(base, (count ?? -1) + 1);
    return count === undefined ? base : `${base}-${count + 1}`;
  };
}
