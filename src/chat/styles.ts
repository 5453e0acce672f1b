/**
 * `<pagent-chat>` styles. Public `--pagent-*` tokens map to private `--_*` properties on `:host`;
 * light and dark follow `prefers-color-scheme` unless the `theme` attribute forces one.
 */
import { css } from 'lit';

const light = css`
  --_bg: var(--pagent-color-background, #ffffff);
  --_fg: var(--pagent-color-text, #1b1f24);
  --_muted: var(--pagent-color-muted, #5b6470);
  --_surface: var(--pagent-color-surface, #f4f6f8);
  --_border: var(--pagent-color-border, #d4d9df);
  --_accent: var(--pagent-color-accent, #0b5cd5);
  --_accent-fg: var(--pagent-color-on-accent, #ffffff);
  --_user-bg: var(--pagent-color-user, #e3edfc);
  --_danger: var(--pagent-color-danger, #b3261e);
  --_danger-bg: var(--pagent-color-danger-surface, #fdecea);
  --_ok: var(--pagent-color-success, #1e7a3c);
  --_focus: var(--pagent-color-focus, #0b5cd5);
`;

const dark = css`
  --_bg: var(--pagent-color-background, #15181c);
  --_fg: var(--pagent-color-text, #e6e9ed);
  --_muted: var(--pagent-color-muted, #9aa4b0);
  --_surface: var(--pagent-color-surface, #1f242a);
  --_border: var(--pagent-color-border, #38414b);
  --_accent: var(--pagent-color-accent, #6ea8ff);
  --_accent-fg: var(--pagent-color-on-accent, #0b1320);
  --_user-bg: var(--pagent-color-user, #1e3357);
  --_danger: var(--pagent-color-danger, #ff8a80);
  --_danger-bg: var(--pagent-color-danger-surface, #3b1d1b);
  --_ok: var(--pagent-color-success, #7ed69a);
  --_focus: var(--pagent-color-focus, #6ea8ff);
`;

/** The element's shadow styles. */
export const chatStyles = css`
  :host {
    ${light}
    --_radius: var(--pagent-radius, 10px);
    --_font: var(--pagent-font-family, system-ui, -apple-system, 'Segoe UI', 'Noto Sans', 'Noto Sans CJK SC', sans-serif);
    --_mono: var(--pagent-font-family-mono, ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace);
    --_gap: var(--pagent-spacing, 12px);
    display: flex;
    flex-direction: column;
    box-sizing: border-box;
    min-height: 0;
    height: var(--pagent-height, 480px);
    color: var(--_fg);
    background: var(--_bg);
    font: 15px/1.5 var(--_font);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    overflow: hidden;
    color-scheme: light;
    container: pagent-chat / inline-size;
  }
  @media (prefers-color-scheme: dark) {
    :host(:not([theme='light'])) {
      ${dark}
      color-scheme: dark;
    }
  }
  :host([theme='dark']) {
    ${dark}
    color-scheme: dark;
  }
  :host([hidden]) {
    display: none;
  }
  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }
  /* One box for everything, so the timeline scrolls inside the element also when the page sets its
     display (custom elements are often given display: block): it fills the host as a flex item or by height. */
  .frame {
    display: flex;
    flex-direction: column;
    flex: 1;
    min-height: 0;
    height: 100%;
  }
  .layout {
    display: flex;
    flex: 1;
    min-height: 0;
  }
  .main {
    display: flex;
    flex-direction: column;
    flex: 1;
    min-width: 0;
    min-height: 0;
    position: relative;
  }
  .timeline {
    flex: 1;
    overflow-y: auto;
    padding: var(--_gap);
    overscroll-behavior: contain;
  }
  .items,
  .chunk {
    display: flex;
    flex-direction: column;
    gap: var(--_gap);
  }
  /* Chunks of earlier rows: out of view, the browser skips their layout and paint (find still works). */
  .chunk[data-settled] {
    content-visibility: auto;
    contain-intrinsic-size: auto 800px;
  }
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
     containment that comes with it clips nothing when the block scrolls sideways. */
  .message.answer .text pre > code > div:not(:last-child) {
    content-visibility: auto;
    contain-intrinsic-size: auto 0px auto 100lh;
    width: max-content;
    min-width: 100%;
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
  .tool {
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_surface);
    padding: 8px 10px;
    font-size: 0.92em;
  }
  .tool[data-status='failed'],
  .tool[data-status='denied'] {
    border-color: var(--_danger);
  }
  .tool-header {
    display: flex;
    align-items: baseline;
    gap: 8px;
    flex-wrap: wrap;
  }
  .tool-name {
    font-family: var(--_mono);
    font-weight: 600;
    overflow-wrap: anywhere;
  }
  .tool-status {
    font-size: 0.85em;
    padding: 0 6px;
    border-radius: 999px;
    border: 1px solid currentColor;
    color: var(--_muted);
  }
  .tool[data-status='ok'] .tool-status {
    color: var(--_ok);
  }
  .tool[data-status='failed'] .tool-status,
  .tool[data-status='denied'] .tool-status {
    color: var(--_danger);
  }
  .tool-duration {
    color: var(--_muted);
    font-size: 0.85em;
  }
  .tool-section {
    margin-top: 6px;
  }
  .label {
    font-size: 0.8em;
    color: var(--_muted);
  }
  .tool pre {
    margin: 2px 0 0;
    font-family: var(--_mono);
    font-size: 0.9em;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
    max-height: 14em;
    overflow: auto;
    background: var(--_bg);
    border-radius: 6px;
    padding: 6px 8px;
  }
  .tool-approval {
    display: flex;
    gap: 8px;
    margin-top: 8px;
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
  .jump {
    position: absolute;
    bottom: 8px;
    left: 50%;
    transform: translateX(-50%);
    box-shadow: 0 2px 8px rgb(0 0 0 / 0.2);
  }
  .suggestions {
    display: flex;
    gap: 6px;
  }
  /* Once the conversation runs: one row that scrolls sideways, never a second line. */
  .composer-suggestions {
    flex: none;
    flex-wrap: nowrap;
    overflow-x: auto;
    padding: 2px var(--_gap);
    scrollbar-width: thin;
  }
  .composer-suggestions ::slotted([slot='suggestions']) {
    flex: none;
    white-space: nowrap;
  }
  .empty {
    margin: auto;
    max-width: 48em;
    text-align: center;
    color: var(--_muted);
  }
  /* the invitation keeps a short line; the suggestions under it get the width for one row */
  .empty-text {
    max-width: 32em;
    margin: 0 auto 10px;
    font-size: 1.05em;
  }
  .empty-suggestions {
    flex-wrap: wrap;
    justify-content: center;
  }
  /* A chip look for slotted suggestions; the page's own styles for them win over these. */
  ::slotted([slot='suggestions']) {
    cursor: pointer;
    font: inherit;
    font-size: 0.85em;
    line-height: 1.4;
    padding: 3px 12px;
    margin: 6px 0;
    border-radius: 999px;
    border: 1px solid var(--_border);
    background: var(--_surface);
    color: var(--_fg);
  }
  ::slotted([slot='suggestions']:hover) {
    border-color: var(--_accent);
    color: var(--_accent);
  }
  ::slotted([slot='suggestions']:focus-visible) {
    outline: 2px solid var(--_focus);
    outline-offset: 2px;
  }
  /* here, not in the attachment chunk: it also says that the chunk could not be loaded */
  .attachment-error { color: var(--_danger); font-size: 0.85em; }
  .attachment-error p { margin: 0; }
  .composer {
    display: flex;
    flex-wrap: wrap;
    gap: 8px;
    padding: var(--_gap);
    border-top: 1px solid var(--_border);
    align-items: flex-end;
  }
  textarea {
    flex: 1 1 14em;
    resize: vertical;
    min-height: 2.6em;
    max-height: 12em;
    font: inherit;
    color: inherit;
    background: var(--_bg);
    border: 1px solid var(--_border);
    border-radius: 8px;
    padding: 6px 8px;
  }
  .composer-actions {
    display: flex;
    gap: 6px;
    margin-inline-start: auto;
  }
  button {
    font: inherit;
    font-size: 0.9em;
    border-radius: 8px;
    border: 1px solid var(--_accent);
    background: var(--_accent);
    color: var(--_accent-fg);
    padding: 5px 12px;
    cursor: pointer;
  }
  button.secondary {
    background: transparent;
    color: var(--_accent);
  }
  button.stop {
    background: var(--_danger);
    border-color: var(--_danger);
    color: var(--_bg);
  }
  button:disabled {
    opacity: 0.5;
    cursor: default;
  }
  :focus-visible {
    outline: 2px solid var(--_focus);
    outline-offset: 2px;
  }
  .wire-log {
    border-top: 1px solid var(--_border);
    padding: 4px var(--_gap);
    font-size: 0.85em;
  }
  .wire-log summary {
    cursor: pointer;
    color: var(--_muted);
  }
  .wire-lines {
    max-height: 12em;
    overflow: auto;
    margin: 4px 0;
    padding-left: 3em;
    font-family: var(--_mono);
  }
  .wire-line code {
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
  .wire-line.bad {
    color: var(--_danger);
  }
  button.danger {
    background: var(--_danger);
    border-color: var(--_danger);
    color: var(--_bg);
  }
  button.icon {
    display: inline-grid;
    place-items: center;
    width: 26px;
    height: 26px;
    padding: 0;
    border-radius: 6px;
    border-color: transparent;
    background: transparent;
    color: var(--_muted);
  }
  button.icon svg {
    fill: none;
    stroke: currentColor;
    stroke-width: 1.4;
    stroke-linecap: round;
    stroke-linejoin: round;
  }
  button.icon:hover {
    color: var(--_fg);
    background: var(--_bg);
    border-color: var(--_border);
  }
  button.icon.danger:hover {
    color: var(--_danger);
  }
  /* Narrow: the list sits above the timeline, a few rows high, so the conversation keeps the room. */
  @container pagent-chat (max-width: 560px) {
    .layout {
      flex-direction: column;
    }
  }
  .sr-only {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
  @media (prefers-reduced-motion: reduce) {
    * {
      scroll-behavior: auto !important;
      transition: none !important;
      animation: none !important;
    }
  }
  button.icon {
    padding: 1px 8px;
  }
  /* Message actions: muted, in the flow of the message, reachable with Tab. */
  .message-actions {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 4px;
    margin-top: calc(2px - var(--_gap));
    color: var(--_muted);
    font-size: 0.85em;
  }
  .message-actions.user {
    justify-content: flex-end;
  }
  .message-actions button {
    background: transparent;
    color: var(--_muted);
    border-color: transparent;
    padding: 2px 8px;
    font-size: 1em;
  }
  .message-actions button:hover:not(:disabled) {
    color: var(--_fg);
    border-color: var(--_border);
  }
  .versions {
    display: inline-flex;
    align-items: center;
    gap: 2px;
    font-variant-numeric: tabular-nums;
  }
  .message-actions .versions button {
    padding: 0 6px;
    font-size: 1.2em;
    line-height: 1.2;
  }
  .copy-failed {
    color: var(--_danger);
  }
  /* The message being edited takes the timeline's width, so the editor never runs past the edge. */
  .message.user:has(+ .editor) {
    display: none;
  }
  .editor {
    display: flex;
    flex-direction: column;
    gap: 6px;
  }
  .editor textarea {
    font: inherit;
    color: inherit;
    background: var(--_bg);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    padding: 8px 12px;
    resize: vertical;
  }
  .editor-buttons {
    display: flex;
    justify-content: flex-end;
    gap: 6px;
  }
  .editor-buttons [part='editor-cancel'] {
    background: transparent;
    color: var(--_accent);
  }
`;
