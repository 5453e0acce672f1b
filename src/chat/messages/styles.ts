/**
 * The messages' styles: the user's bubble, the rendered answer (code blocks, tables, lists, quotes), reasoning,
 * turn boundaries, usage and error cards.
 */
import { css } from 'lit';

/** Messages, a sheet of the element. */
export const messageStyles = css`
  .message.user {
    align-self: flex-end;
    max-width: 85%;
  }
  .bubble {
    background: var(--_user-bg);
    padding: 8px 12px;
    border-radius: var(--_radius);
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
  .message.answer .text {
    overflow-wrap: anywhere;
  }
  .message.answer .text :where(p, ul, ol, pre, table, blockquote, h1, h2, h3, h4, h5, h6) {
    margin: 0 0 0.6em;
  }
  .message.answer .text :where(pre) {
    white-space: pre;
    overflow-x: auto;
    background: var(--_surface);
    padding: 8px;
    border-radius: 6px;
  }
  /* Raw HTML is shown as the text it is, line breaks kept. */
  .message.answer .text [part~='raw-html'] {
    white-space: pre-wrap;
    font-family: var(--_mono);
    font-size: 0.92em;
  }
  /* A code block: a header row (language, copy button) above the code, so the button never covers it. */
  .message.answer .text [part~='code-block'] {
    margin: 0 0 0.6em;
    border-radius: 6px;
    background: var(--_surface);
    overflow: hidden;
  }
  .message.answer .text [part~='code-header'] {
    display: flex;
    align-items: center;
    justify-content: space-between;
    gap: 8px;
    padding: 2px 4px 2px 10px;
    border-bottom: 1px solid var(--_border);
    font-size: 0.75em;
    color: var(--_muted);
  }
  .message.answer .text [part~='code-language'] {
    font-family: var(--_mono);
  }
  .message.answer .text [part~='code-block'] > pre {
    margin: 0;
    border-radius: 0;
  }
  /* A long block's earlier 100-line chunks: off screen the browser skips their layout and paint (a 2 MB
     block was laid out whole on every frame). Each is as wide as its longest line, so the paint
     containment that comes with it clips nothing when the block scrolls sideways. The last chunk is left
     out: unlike a table's body (below), a chunk whose content-visibility changes when the next one comes
     does not make the next paint walk the earlier ones. */
  .message.answer .text pre > code > div:not(:last-child) {
    content-visibility: auto;
    contain-intrinsic-size: auto 0px auto 100lh;
    width: max-content;
    min-width: 100%;
  }
  /* A long paragraph's chunks (markdown/leaf.ts), every one: off screen the browser skips their layout
     and paint (a 100 kB paragraph was painted over the whole height around the view on each update).
     The last one too, so that no chunk's content-visibility changes when the next one comes: that makes
     the next paint walk all of them again. */
  .message.answer .text :where(p, li, h1, h2, h3, h4, h5, h6) > div:not([part]) {
    content-visibility: auto;
    contain-intrinsic-size: auto 0px auto 400px;
  }
  .message.answer .text [part~='copy-button'] {
    font: inherit;
    line-height: 1.4;
    min-height: 24px;
    padding: 1px 8px;
    border-radius: 6px;
    border: 1px solid transparent;
    background: transparent;
    color: var(--_muted);
    cursor: pointer;
    transition: color 0.15s ease;
  }
  .message.answer .text [part~='copy-button']:hover,
  .message.answer .text [part~='copy-button']:focus-visible {
    color: var(--_fg);
    border-color: var(--_border);
  }
  .message.answer .text [part~='copy-button'][data-copied] {
    color: var(--_ok);
    border-color: var(--_ok);
  }
  .message.answer .text li > input[type='checkbox'] {
    margin: 0 0.3em 0 0;
    vertical-align: middle;
  }
  .message.answer .text :where(code) {
    font-family: var(--_mono);
    font-size: 0.92em;
  }
  .message.answer .text :where(a) {
    color: var(--_accent);
  }
  /* A wide table scrolls sideways instead of widening the timeline (as GitHub renders them). */
  .message.answer .text :where(table) {
    border-collapse: collapse;
    display: block;
    width: max-content;
    max-width: 100%;
    overflow-x: auto;
  }
  /* A table of more than 100 rows has a body per 100 rows (markdown/table.ts): its head and each body are
     laid out as tables of their own, with the same fixed column widths set on their first rows, so a new
     row lays out only the last body (one table box is laid out whole on any change to it), and bodies
     off screen skip layout and paint. */
  .message.answer .text :where(table[data-chunked]) > * {
    display: table;
    table-layout: fixed;
    width: max-content;
  }
  /* The widths are the text's: padding and borders come on top. */
  .message.answer .text :where(table[data-chunked]) :where(th, td) {
    box-sizing: content-box;
  }
  .message.answer .text :where(table[data-chunked]) > tbody > tr:first-child > * {
    border-top-width: 0;
  }
  /* Every body, the last one too: a body whose content-visibility changed (as a :not(:last-child) rule
     would change it when the next one comes) made the next paint walk every body again: a pause that grew
     with the table. */
  .message.answer .text :where(table[data-chunked]) > tbody {
    content-visibility: auto;
    contain-intrinsic-size: auto 0px auto 3000px;
  }
  .message.answer .text :where(blockquote) {
    padding-inline-start: 0.8em;
    border-inline-start: 3px solid var(--_border);
    color: var(--_muted);
  }
  .message.answer .text :where(blockquote > :last-child, li > :last-child) {
    margin-bottom: 0;
  }
  .message.answer .text :where(hr) {
    border: none;
    border-top: 1px solid var(--_border);
    margin: 0.8em 0;
  }
  /* Groups of 6 blocks or 32 list items in a long answer: earlier ones skip layout and paint out of view. */
  .message.answer .text :where(ul, ol) {
    padding-inline-start: 1.6em;
  }
  .message.answer .text :where(ul, ol) > [part~='group'] {
    margin-inline-start: -1.6em;
    padding-inline-start: 1.6em;
  }
  /* The last group is left out: unlike a table's body, a group whose content-visibility changes when the next
     one comes does not make the next paint walk the earlier ones. */
  .message.answer .text [part~='group']:not(:last-child) {
    content-visibility: auto;
    contain-intrinsic-size: auto 600px;
  }
  /* Task list items show their checkbox instead of a bullet. */
  .message.answer .text li:has(> input[type='checkbox']:first-child) {
    list-style: none;
  }
  .message.answer .text :where(th, td) {
    border: 1px solid var(--_border);
    padding: 2px 6px;
  }
  .stopped {
    margin: 4px 0 0;
    font-size: 0.85em;
    color: var(--_muted);
    font-style: italic;
  }
  .reasoning {
    border-left: 3px solid var(--_border);
    padding-left: 10px;
    color: var(--_muted);
  }
  .reasoning summary {
    cursor: pointer;
    font-size: 0.9em;
  }
  .reasoning-text {
    white-space: pre-wrap;
    overflow-wrap: anywhere;
    font-size: 0.92em;
  }
  .turn {
    display: flex;
    align-items: center;
    gap: 8px;
    color: var(--_muted);
    font-size: 0.8em;
  }
  .turn::before,
  .turn::after {
    content: '';
    flex: 1;
    border-top: 1px dashed var(--_border);
  }
  .usage {
    align-self: flex-start;
    color: var(--_muted);
    font-size: 0.8em;
  }
  .error {
    border: 1px solid var(--_danger);
    background: var(--_danger-bg);
    border-radius: var(--_radius);
    padding: 8px 12px;
  }
  .error p {
    margin: 0 0 4px;
    overflow-wrap: anywhere;
  }
  .error-title {
    font-weight: 600;
    color: var(--_danger);
  }
  .error-code {
    font-size: 0.8em;
    color: var(--_muted);
  }
  .error-details {
    font-size: 0.9em;
    margin: 0 0 4px;
  }
  .error-details summary {
    cursor: pointer;
    color: var(--_muted);
    font-size: 0.9em;
  }
  .error-details p {
    margin: 4px 0 0;
  }
  .error-message {
    white-space: pre-wrap;
  }
`;
