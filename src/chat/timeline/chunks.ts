/**
 * Renders the timeline's rows in chunks of {@link CHUNK_ROWS}, so an update re-renders only the chunk
 * whose rows changed: the per-update cost does not grow with the conversation. A full chunk whose rows
 * all belong to earlier runs is sealed and never looked at again (the reducer changes only rows of the
 * latest run; a new rows array — another conversation — starts over). Each chunk but the newest has
 * `content-visibility: auto` (see styles.ts), so the browser skips the layout and paint of chunks out of
 * view; their text stays selectable and findable with the browser's find.
 */
import { html, type TemplateResult } from 'lit';
import { guard } from 'lit/directives/guard.js';
import { repeat } from 'lit/directives/repeat.js';
import type { TimelineItem } from './items.js';
import type { RowContext } from './row-context.js';

/** Rows per chunk. */
export const CHUNK_ROWS = 64;
/** Chunks per group: a second level, so the timeline has few children even at thousands of runs. */
export const GROUP_CHUNKS = 16;

interface Chunk {
  /** The rows as last rendered (references, compared row by row). */
  rows: TimelineItem[];
  /** A new object whenever a row changed: what the chunk's guard watches. */
  version: object;
}

/** Keeps the chunks between renders; one per element. */
export class TimelineChunks {
  private chunks: Chunk[] = [];
  private source: readonly TimelineItem[] | undefined;
  /** Chunks before this one are sealed. */
  private sealed = 0;
  /** Row comparisons made by the last render (for tests: bounded, whatever the conversation's length). */
  compared = 0;

  render(
    items: readonly TimelineItem[],
    ctx: RowContext,
    renderRow: (item: TimelineItem, ctx: RowContext) => unknown,
  ): TemplateResult {
    const count = Math.ceil(items.length / CHUNK_ROWS);
    if (items !== this.source || count < this.sealed) {
      this.source = items;
      this.chunks = [];
      this.sealed = 0;
    }
    this.chunks.length = Math.min(this.chunks.length, count);
    this.compared = 0;
    for (let c = this.sealed; c < count; c++) {
      const from = c * CHUNK_ROWS;
      const to = Math.min(items.length, from + CHUNK_ROWS);
      const chunk = this.chunks[c];
      let same = chunk !== undefined && chunk.rows.length === to - from;
      for (let i = from; same && i < to; i++) {
        this.compared += 1;
        same = chunk!.rows[i - from] === items[i];
      }
      if (!same) this.chunks[c] = { rows: items.slice(from, to), version: {} };
    }
    const latestRun = items[items.length - 1]?.run ?? 0;
    while (this.sealed < count - 1 && this.chunks[this.sealed]!.rows[CHUNK_ROWS - 1]!.run < latestRun) this.sealed += 1;
    const last = count - 1;
    const renderChunk = (chunk: Chunk, index: number): TemplateResult =>
      html`<div class="chunk" ?data-settled=${index < last}>
        ${guard([chunk.version, ctx], () =>
          repeat(chunk.rows, (item) => item.key, (item) => guard([item, ctx], () => renderRow(item, ctx))),
        )}
      </div>`;
    const groups: Chunk[][] = [];
    for (let g = 0; g * GROUP_CHUNKS < this.chunks.length; g++) {
      groups.push(this.chunks.slice(g * GROUP_CHUNKS, (g + 1) * GROUP_CHUNKS));
    }
    const lastGroup = groups.length - 1;
    // A full group of sealed chunks never changes again: its guard holds while its chunks do.
    return html`${repeat(
      groups,
      (_, g) => g,
      (group, g) =>
        html`<div class="chunk" ?data-settled=${g < lastGroup}>
          ${guard([...group.map((c) => c.version), ctx, g < lastGroup], () =>
            repeat(group, (_, i) => i, (chunk, i) => renderChunk(chunk, g * GROUP_CHUNKS + i)),
          )}
        </div>`,
    )}`;
  }
}
