/**
 * `pagent-web/pagent-chat.bundle.js`: the whole package as one self-contained ES module (lit,
 * streaming-markdown, eventsource-parser and idb-keyval inlined) for pages without a bundler or import
 * map. Importing it registers `<pagent-chat>`; it exports the element class and the SDK.
 *
 * @example
 * <script type="module" src="https://cdn.jsdelivr.net/npm/pagent-web@0.1.0/dist/pagent-chat.bundle.js"></script>
 * <pagent-chat src="/api/chat"></pagent-chat>
 */
export * from './index.js';
export * from './chat/pagent-chat.js';
