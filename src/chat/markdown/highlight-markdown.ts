/**
 * A small stream tokenizer for Markdown in fenced blocks (the legacy modes have none without the editor):
 * headings, list and quote markers, fences and the code inside them, code spans, emphasis markers, links.
 */
import type { StreamParser, StringStream } from '@codemirror/streamparser';

interface MarkdownState {
  fence: string | null;
}

export const markdownMode: StreamParser<MarkdownState> = {
  name: 'markdown',
  startState: () => ({ fence: null }),
  token(stream: StringStream, state: MarkdownState): string | null {
    if (stream.sol()) {
      const fence = stream.match(/^ {0,3}(`{3,}|~{3,})/) as RegExpMatchArray | null;
      if (fence) {
        const marker = fence[1]!;
        if (state.fence === null) state.fence = marker;
        else if (marker.startsWith(state.fence) && /^\s*$/.test(stream.string.slice(stream.pos))) state.fence = null;
        stream.skipToEnd();
        return 'meta';
      }
      if (state.fence !== null) {
        stream.skipToEnd();
        return 'string';
      }
      if (stream.match(/^ {0,3}#{1,6}(?=\s|$)/)) {
        stream.skipToEnd();
        return 'heading';
      }
      if (stream.match(/^ {0,3}>/)) return 'quote';
      if (stream.match(/^\s*(?:[-*+]|\d{1,9}[.)])(?=\s)/)) return 'keyword';
    }
    if (state.fence !== null) {
      stream.skipToEnd();
      return 'string';
    }
    if (stream.match(/^`+[^`]*`+/)) return 'string';
    if (stream.match(/^\*\*|^__|^[*_~]/)) return 'keyword';
    if (stream.match(/^\]\([^)\s]*\)/)) return 'url';
    stream.next();
    stream.eatWhile(/[^`*_~\]\\]/);
    return null;
  },
};
