/**
 * Syntax highlighting of fenced code, the part that ships with the element: a line queue that holds a
 * block's finished lines until the highlighter (`highlighter.ts`, a lazily loaded chunk requested by the
 * first block with a language word, plus one small chunk per language) has arrived and knows the language.
 *
 * Highlighting never touches the DOM: tokens become `StaticRange`s in the page's CSS Custom Highlight
 * registry (`CSS.highlights`), coloured by `::highlight()` rules. So the code's DOM, its text (what copy
 * copies) and its layout are the same with or without colours, whenever the chunk arrives. Where the
 * browser has no `CSS.highlights`, code stays plain and nothing is loaded.
 */

/** What the highlighter chunk gives a code block: it takes the block's finished lines, in order. */
export interface LineSink {
  /** A line ended: it is the text of `node` from `start` to `end` (default: its end; `node` null: empty). */
  line(node: Text | null, start: number, end?: number): void;
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
 * has loaded (and dropped when the language is not one we know). `null` when the browser cannot show
 * highlights.
 */
export function createLineHighlight(language: string, code: HTMLElement): LineSink | null {
  if (!(code.ownerDocument.defaultView as (Window & { CSS?: { highlights?: unknown } }) | null)?.CSS?.highlights) return null;
  let queue: Array<[Text | null, number, number]> | null = [];
  let sink: LineSink | null = null;
  loadEngine()
    .then((m) => m.createLineSink(language, code))
    .then(
      (s) => {
        sink = s;
        if (s) for (const [node, start, end] of queue!) s.line(node, start, end);
        queue = null;
      },
      () => (queue = null), // stays plain
    );
  return {
    line(node, start) {
      // Queued lines keep their end: the node has grown since.
      if (sink) sink.line(node, start);
      else queue?.push([node, start, node?.length ?? 0]);
    },
  };
}
