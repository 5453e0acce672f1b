/**
 * The work bound of one formula. The 4,096-character reach and Temml's 300 expansion steps do not bound the
 * work by themselves, and Chromium lays MathML out in time that grows faster than its size:
 * - tokens: one step can paste a long argument hundreds of times (`\def\a#1{#1#1…}`), and 300 steps of a
 *   3,400-token macro make a million tokens;
 * - built nodes: a matrix whose first row has 1,000 cells pads each of its 500 other rows to 1,000 cells,
 *   and `\llap` (twice) and `\cancelto` (three times) build their argument more than once, so 30 nested
 *   `\llap` build a billion nodes;
 * - elements: Chromium inserts a MathML element's children in time quadratic in their number (a million
 *   `<mi>` in one `<mrow>` took about an hour);
 * - depth: it lays out nested `<mpadded>` or `<mphantom>` in time cubic in their depth (200 nested
 *   `\hphantom` took 10 s).
 * So each is counted before the stage that would do the work, and a formula past a limit is refused with
 * a {@link MathTooLargeError}.
 */
import temml from 'temml';

/**
 * Tokens one formula may expand to: every token the parser reads (one macro-table lookup each) plus every
 * token a formula's own macro puts back (counted before it is built). A formula that fills the 4,096
 * characters without macros needs about 4,100.
 */
export const MAX_TOKENS = 10_000;

/**
 * Parse nodes one formula may have built, counted on the parse tree before building: array cells Temml
 * adds as padding and arguments it builds more than once are counted each time. A formula of 4,096
 * characters has at most about 4,100 unless it repeats a construct made for amplification.
 */
export const MAX_NODES = 10_000;

/**
 * MathML elements one formula may have (Chromium's work grows faster than their number). A formula of
 * 4,096 characters builds at most about one element per character unless it repeats a construct made for
 * amplification.
 */
export const MAX_ELEMENTS = 4_500;

/** How deeply one formula's MathML elements may nest (a fraction or a root nests two or three levels). */
export const MAX_DEPTH = 64;

/** Temml's options for untrusted formulas (the macro table is added per formula). */
const OPTIONS = { throwOnError: true, trust: false, strict: false, maxExpand: 300, maxSize: [20, 200] as [number, number], annotate: true };

/**
 * A formula past {@link MAX_TOKENS}, {@link MAX_NODES}, {@link MAX_ELEMENTS} or {@link MAX_DEPTH}: it
 * shows as its source instead, titled in the reader's language. It never leaves the renderer, so it is a
 * plain `Error`: importing `PagentError` into this lazily loaded chunk would split the element's first
 * load into one more chunk, 0.4 kB larger once gzipped.
 */
export class MathTooLargeError extends Error {
  override readonly name = 'MathTooLargeError';
  /** Which limit the formula passed. */
  readonly limit: 'tokens' | 'nodes' | 'elements' | 'depth';

  constructor(limit: 'tokens' | 'nodes' | 'elements' | 'depth') {
    const what = {
      tokens: `more than ${MAX_TOKENS} tokens`,
      nodes: `more than ${MAX_NODES} nodes to build`,
      elements: `more than ${MAX_ELEMENTS} MathML elements`,
      depth: `MathML nested more than ${MAX_DEPTH} deep`,
    }[limit];
    super(`The formula is too large: it would make ${what}.`);
    this.limit = limit;
  }
}

/** Work counters of formula building, for tests and benchmarks. */
export const mathWork = {
  /** Tokens counted against {@link MAX_TOKENS}, over all formulas. */
  tokens: 0,
  /** MathML elements of formulas that passed {@link MAX_ELEMENTS}, over all formulas. */
  elements: 0,
};

// The parts of Temml's macro expander and tokens that a formula's own macro is expanded with.
interface Token { readonly text: string }
interface Expander { consumeArgs(count: number, delimiters?: string[][]): Token[][] }
interface Definition { tokens: Token[]; numArgs: number; delimiters?: string[][] }
type Expansion = (expander: Expander) => { tokens: Token[]; numArgs: number };

const isDefinition = (value: unknown): value is Definition =>
  typeof value === 'object' && value !== null && Array.isArray((value as Definition).tokens);

/**
 * A fresh macro table for one formula that counts tokens against {@link MAX_TOKENS}. Temml keeps a
 * formula's macros in the `macros` object it is given and looks every token up in it first, so: each
 * lookup counts one, reading a definition counts its tokens (they go back onto the input), and a
 * definition with parameters is stored as an expansion that counts the pasted tokens before pasting
 * them (Temml's own pasting splices in place: quadratic in the placeholders).
 */
function createMacroTable(): Record<string, unknown> {
  let spent = 0;
  const spend = (count: number): void => {
    if (spent + count > MAX_TOKENS) throw new MathTooLargeError('tokens');
    spent += count;
    mathWork.tokens += count;
  };
  const table = Object.create(null) as Record<string, unknown>;
  return new Proxy(table, {
    getOwnPropertyDescriptor(target, name) {
      spend(1);
      return Reflect.getOwnPropertyDescriptor(target, name);
    },
    get(target, name) {
      const value = Reflect.get(target, name);
      if (isDefinition(value)) spend(value.tokens.length);
      return value;
    },
    set(target, name, value: unknown) {
      return Reflect.set(target, name, isDefinition(value) && value.numArgs > 0 ? expansionOf(value, spend) : value);
    },
  });
}

/** A definition with parameters as an expansion that pastes its arguments in linear time, counted first. */
function expansionOf(definition: Definition, spend: (count: number) => void): Expansion {
  return (expander) => {
    const args = expander.consumeArgs(definition.numArgs, definition.delimiters);
    const body = definition.tokens; // in reverse order, as Temml keeps tokens on its stack
    let size = 0;
    for (let i = body.length - 1; i >= 0; i--) {
      const placeholder = body[i]!.text === '#' && i > 0 ? /^[1-9]$/.exec(body[i - 1]!.text) : null;
      if (placeholder) {
        size += args[Number(placeholder[0]) - 1]?.length ?? 0;
        i--;
      } else size += 1;
    }
    spend(size);
    // Temml's rules, read in source order: `##` is `#`, `#n` is argument n, any other `#` is an error.
    const pasted: Token[] = [];
    for (let i = body.length - 1; i >= 0; i--) {
      const token = body[i]!;
      if (token.text !== '#') {
        pasted.push(token);
        continue;
      }
      if (i === 0) throw new temml.ParseError('Incomplete placeholder at end of macro body', token);
      const next = body[--i]!;
      const arg = /^[1-9]$/.test(next.text) ? args[Number(next.text) - 1] : undefined;
      if (next.text === '#') pasted.push(next);
      else if (arg) for (let j = arg.length - 1; j >= 0; j--) pasted.push(arg[j]!);
      else throw new temml.ParseError('Not a valid argument number', next);
    }
    return { tokens: pasted.reverse(), numArgs: 0 };
  };
}

/** How many times Temml's MathML builders build a field of a parse node (`\llap` and `\cancelto` build their argument more than once). */
function timesBuilt(node: { type?: unknown; alignment?: unknown }, field: string): number {
  if (field !== 'body') return 1;
  if (node.type === 'lap' && node.alignment === 'llap') return 2;
  return node.type === 'cancelto' ? 3 : 1;
}

/**
 * The parse nodes of `tree` that Temml will build, each as many times as it will be built, plus the cells
 * Temml adds to pad the rows of an array to the length of its first. A node reachable twice (a
 * `\equilibriumRight` keeps its argument twice) is counted twice. Stops counting past `limit`, so the walk
 * is bounded even where the count would be exponential.
 */
export function countBuilt(tree: unknown, limit: number): number {
  let count = 0;
  const stack: Array<[unknown, number]> = [[tree, 1]];
  while (stack.length > 0 && count <= limit) {
    const [node, times] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (Array.isArray(node)) {
      for (const item of node) stack.push([item, times]);
      continue;
    }
    const { type, body } = node as { type?: unknown; body?: unknown };
    if (typeof type === 'string') count += times;
    if (type === 'array' && Array.isArray(body)) {
      const columns = Array.isArray(body[0]) ? body[0].length : 0;
      for (const row of body) count += times * Math.max(0, columns - (Array.isArray(row) ? row.length : 0));
    }
    for (const [key, value] of Object.entries(node)) if (key !== 'loc') stack.push([value, times * timesBuilt(node, key)]);
  }
  return count;
}

/** Checks the elements of a MathML tree (its nodes with children) and their depth, stopping at a limit. */
function checkElements(tree: unknown): number {
  let count = 0;
  const stack: Array<[unknown, number]> = [[tree, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()! as [{ children?: unknown } | null, number];
    if (typeof node !== 'object' || node === null || !Array.isArray(node.children)) continue;
    if (++count > MAX_ELEMENTS) throw new MathTooLargeError('elements');
    if (depth > MAX_DEPTH) throw new MathTooLargeError('depth');
    for (const child of node.children) stack.push([child, depth + 1]);
  }
  return count;
}

/** The MathML tree Temml's `toNode()` turns into DOM. */
export interface MathTree {
  toNode(): Element;
}

/**
 * Typesets `tex` as a MathML tree, within the bounds: throws {@link MathTooLargeError} past
 * {@link MAX_TOKENS} (while expanding, before the next token is read), {@link MAX_NODES} (on the parse
 * tree, before building), {@link MAX_ELEMENTS} or {@link MAX_DEPTH} (on the MathML tree, before any DOM is
 * made), and Temml's `ParseError` for an invalid formula. The formula
 * is parsed twice (once to count, once to build), each time with a fresh macro table: a `\gdef` never
 * reaches another formula.
 */
export function buildMathTree(tex: string, display: boolean): MathTree {
  const tree: unknown = temml.__parse(tex, { ...OPTIONS, displayMode: display, macros: createMacroTable() });
  if (countBuilt(tree, MAX_NODES) > MAX_NODES) throw new MathTooLargeError('nodes');
  const math = temml.__renderToMathMLTree(tex, { ...OPTIONS, displayMode: display, macros: createMacroTable() }) as MathTree;
  mathWork.elements += checkElements(math);
  return math;
}
