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

/** Work counters of the highlighter, for tests and benchmarks. */
export interface HighlightStats {
  engineLoads: number;
  linesTokenized: number;
  rangesCreated: number;
}

/** The page's highlighting work so far. */
export const highlightStats: HighlightStats = {
  /** Times the highlighter chunk was requested (once per page). */
  engineLoads: 0,
  /** Lines given to a language's tokenizer (each finished line once). */
  linesTokenized: 0,
  /** Ranges added to the highlight registry. */
  rangesCreated: 0,
};

/** What the highlighter chunk gives a code block: it takes the block's finished lines, in order. */
export interface LineSink {
  /** `text` is one line (no line end), found in `node` from `offset`; `node` is null for an empty line. */
  line(node: Text | null, offset: number, text: string): void;
}

type Engine = typeof import('./highlighter.js');
let engine: Promise<Engine> | undefined;

function loadEngine(): Promise<Engine> {
  if (!engine) {
    highlightStats.engineLoads += 1;
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
  let queue: Array<[Text | null, number, string]> | null = [];
  let sink: LineSink | null = null;
  loadEngine()
    .then((m) => m.createLineSink(language, code, highlightStats))
    .then(
      (s) => {
        sink = s;
        if (s) for (const [node, offset, text] of queue!) s.line(node, offset, text);
        queue = null;
      },
      () => (queue = null), // stays plain
    );
  return {
    line(node, offset, text) {
      if (sink) sink.line(node, offset, text);
      else queue?.push([node, offset, text]);
    },
  };
}
