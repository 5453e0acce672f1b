/**
 * Syntax highlighting of fenced code, the part that ships with the element: a line queue that holds a
 * block's finished lines until the highlighter (`highlighter.ts`, a lazily loaded chunk requested by the
 * first block with a language word, plus one small chunk per language) has arrived and knows the language.
 *
 * A highlighted block keeps each line in a Text node of its own; once the line is finished the highlighter
 * replaces that node by the line's tokens (spans with a `pagent-hl-…` class, and text), once. The code's
 * text (what copy copies) and its layout are the same with or without colours, whenever the chunk arrives.
 */

/** What the highlighter chunk gives a code block: it takes the block's finished lines, in order. */
export interface LineSink {
  /** A line ended: it is the text of `node` from `start` to `end` (default: its end; `node` null: empty). */
  line(node: Text | null, start: number, end?: number): void;
}

/** A block's highlighting as the code block sees it. */
export interface LineHighlight extends LineSink {
  /** `true` once it is known that this block stays plain (a language we do not know, or a failed load). */
  readonly plain: boolean;
}

type Engine = typeof import('./highlighter.js');
let engine: Promise<Engine> | undefined;

function loadEngine(): Promise<Engine> {
  if (!engine) {
    engine = import('./highlighter.js');
    engine.catch(() => (engine = undefined)); // a failed chunk load is retried by the next block
  }
  return engine;
}

/**
 * The highlighting of one code block: finished lines go to the language's tokenizer, queued until it
 * has loaded (and dropped when the language is not one we know); `signal` drops the lines still waiting.
 */
export function createLineHighlight(language: string, code: HTMLElement, signal?: AbortSignal): LineHighlight {
  let queue: Array<[Text | null, number, number]> | null = [];
  let sink: LineSink | null = null;
  let plain = false;
  loadEngine()
    .then((m) => m.createLineSink(language, code, signal))
    .then(
      (s) => {
        sink = s;
        plain = s === null;
        if (s) for (const [node, start, end] of queue!) s.line(node, start, end);
        queue = null;
      },
      () => {
        plain = true; // stays plain
        queue = null;
      },
    );
  return {
    get plain() {
      return plain;
    },
    line(node, start, end = node?.length ?? 0) {
      if (sink) sink.line(node, start, end);
      else queue?.push([node, start, end]);
    },
  };
}
