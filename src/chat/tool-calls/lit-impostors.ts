/**
 * Values that Lit would take for its own objects, and output of a page renderer that must not be drawn.
 * lit-html recognises a template result by a `_$litType$` property, a directive result by
 * `_$litDirective$` and a static value by `_$litStatic$`. JSON can carry these keys, so a tool call's
 * arguments interpolated as `${call.arguments.city}` would be taken for a template; lit-html refuses it (it
 * lacks the strings of `html`), but by throwing in the middle of the element's update. (Lit also commits
 * any value with a `nodeType` as a DOM node; ordinary data may carry that key, so it is not refused here:
 * Lit's failure on it is caught like any other.)
 */

/** The keys lit-html reads on a value to treat it as its own object (lit-html.js, directive.js, static.js). */
const LIT_KEYS = ['_$litType$', '_$litDirective$', '_$litStatic$'] as const;

/** The first of {@link LIT_KEYS} that a parsed JSON value carries at any depth, else `undefined`. */
export function litKeyIn(json: unknown): string | undefined {
  // a loop, not recursion: JSON.parse accepts nesting deeper than the call stack
  const stack: unknown[] = [json];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value !== 'object' || value === null) continue;
    if (!Array.isArray(value)) for (const key of LIT_KEYS) if (Object.hasOwn(value, key)) return key;
    for (const child of Object.values(value)) if (typeof child === 'object' && child !== null) stack.push(child);
  }
  return undefined;
}

/** Strings made by a template tag: an array with its own `raw` (what lit-html itself checks before drawing). */
const isTemplateStrings = (strings: unknown): boolean => Array.isArray(strings) && Object.hasOwn(strings, 'raw');

/** A template result made by Lit's `html`, `svg` or `mathml` tag (or a compiled template). */
function isTemplateResult(value: { _$litType$?: unknown; strings?: unknown; values?: unknown }): boolean {
  const type = value._$litType$;
  const made = typeof type === 'number' ? isTemplateStrings(value.strings) : typeof type === 'object' && type !== null && isTemplateStrings((type as { h?: unknown }).h);
  return made && Array.isArray(value.values);
}

/**
 * Whether drawing `node` into a card of `host` would take it from somewhere: it is on a page (the element,
 * an element around it, a part of its view or of the page), or, while the element is off the page, it is
 * the element, holds it or lies in its view. A node the card itself drew last time (in `container`) stays.
 */
function misplaced(node: Node, host: Element | undefined, container: Node | undefined): boolean {
  if (container?.contains(node)) return false;
  if (node.isConnected) return true;
  if (!host) return false;
  for (let n: Node | null = host; n; n = n.parentNode ?? (n instanceof ShadowRoot ? n.host : null)) if (n === node) return true;
  return host.shadowRoot?.contains(node) ?? false;
}

/**
 * Why a renderer's output cannot be drawn, or `undefined` when it can be tried: it must be a template
 * result made by Lit or a DOM node; anywhere in it, an imitation of a Lit object, or a node already on the
 * page or holding the element (drawing it would move it into the card, or the element into itself) is
 * refused; `container` is where the card drew last time. Other values are left to Lit, whose failures the
 * caller catches. May throw when a value's getter throws.
 */
export function outputProblem(output: unknown, host: Element | undefined, container: Node | undefined): string | undefined {
  const top = output as { _$litType$?: unknown; _$litDirective$?: unknown } | null | undefined;
  if (!(output instanceof Node) && (typeof output !== 'object' || output === null || (top!._$litType$ === undefined && top!._$litDirective$ === undefined))) {
    return `it returned ${kindOf(output)}, not a Lit template or a DOM node`;
  }
  const seen = new Set<unknown>();
  const stack: unknown[] = [output];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value !== 'object' || value === null || seen.has(value)) continue;
    seen.add(value);
    if (value instanceof Node) {
      if (misplaced(value, host, container)) return 'its output holds a node that is on the page already (the element itself, an element around it, a part of its view or of the page)';
      continue;
    }
    const v = value as { _$litType$?: unknown; _$litDirective$?: unknown; values?: unknown };
    if (v._$litType$ !== undefined) {
      if (!isTemplateResult(v)) return 'its output holds an object that imitates a Lit template (`_$litType$` without the strings of `html`)';
      stack.push(...(v.values as unknown[]));
    } else if (v._$litDirective$ !== undefined) {
      if (typeof v._$litDirective$ !== 'function') return 'its output holds an object that imitates a Lit directive (`_$litDirective$`)';
    } else if (Array.isArray(value)) stack.push(...(value as unknown[]));
  }
  return undefined;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  const type = typeof value;
  return type === 'object' ? 'an object' : `a ${type}`;
}
