/**
 * What the element says when a page tool renderer fails. Building it never throws, whatever was thrown:
 * an error whose `message` getter or `toString` throws, a Proxy, a Symbol.
 */

/** The longest piece of untrusted text (a tool name, a thrown message) put into a message. */
const MAX_TEXT = 200;

const clip = (text: string): string => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text);

/** `value` as text for a message, or a placeholder when turning it into text throws. */
export function describeThrown(value: unknown): string {
  try {
    if (typeof value === 'symbol') return clip(Symbol.prototype.toString.call(value));
    if (value instanceof Error) return clip(`${String(value.name)}: ${String(value.message)}`);
    return clip(String(value));
  } catch {
    return 'a value that cannot be shown as text';
  }
}

/** The message and place of a renderer's failure, for the `PagentError` (`code: "render"`) the element reports. */
export interface RendererFailure {
  /** `The renderer of tool "<name>" <outcome>`. */
  message: string;
  /** `renderers.<name>`. */
  where: string;
}

/**
 * The failure of the renderer of tool `name`; `outcome` says what happened ("failed: it returned a symbol,
 * not a Lit template or a DOM node", "was not called: …"). The name is cut to 200 characters.
 */
export function rendererFailure(name: string, outcome: string): RendererFailure {
  const tool = clip(name);
  return { message: `The renderer of tool "${tool}" ${outcome}`, where: `renderers.${tool}` };
}
