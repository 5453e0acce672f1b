/**
 * The element's own styles: public `--pagent-*` tokens mapped to private `--_*` properties on `:host`
 * (light and dark follow `prefers-color-scheme` unless the `theme` attribute forces one), the layout of
 * the conversation list beside the timeline (above it when narrow), and what holds for every feature.
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


/** The host, its theme tokens and the layout. */
export const hostStyles = css`
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
`;
