/**
 * `pagent-web/pagent-chat.bundle.js`: the whole package as one self-contained ES module (lit, our
 * markdown renderer with its entity table, eventsource-parser and idb-keyval inlined) for pages without a
 * bundler or import map. It leaves out the syntax highlighter and the TeX renderer, which only load as
 * chunks: with it, code shows plain and formulas as their source. Importing it registers `<pagent-chat>`;
 * it exports the element class and the SDK.
 *
 * @example
 * <script type="module" src="https://cdn.jsdelivr.net/npm/pagent-web@0.1.0/dist/pagent-chat.bundle.js"></script>
 * <pagent-chat src="/api/chat"></pagent-chat>
 */
export * from './index.js';
export * from './chat/pagent-chat.js';
