/**
 * The timeline's styles: the scrolling log, its rows and their chunks, the empty state, "Jump to latest".
 */
import { css } from 'lit';

/** The timeline, a sheet of the element. */
export const timelineStyles = css`
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
  .jump {
    position: absolute;
    bottom: 8px;
    left: 50%;
    transform: translateX(-50%);
    box-shadow: 0 2px 8px rgb(0 0 0 / 0.2);
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
`;
