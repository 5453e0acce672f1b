/**
 * A document's link reference definitions and the text rendered before what it needs arrived: text that
 * referred to a label defined later, and text using a named character reference before the full entity
 * table loaded, is rendered again.
 */
import { onEntitiesLoaded } from './entities.js';
import type { InlineContext, LinkReference } from './inlines.js';
import type { Rerenderable } from './table.js';

/** The definitions of one document, and who waits for them. */
export class References {
  private readonly refmap = new Map<string, LinkReference>();
  private readonly waiting = new Map<string, Set<Rerenderable>>();
  /** Text that referred to a label defined since, to render again (see {@link flush}). */
  private readonly stale = new Set<Rerenderable>();
  private definedSinceFlush = 0;
  private definedAtFlush = 0;
  private readonly needEntities = new Set<Rerenderable>();
  private unsubscribeEntities: (() => void) | null = null;
  /** Text that may be rendered again: its source must be kept. */
  private readonly kept = new WeakSet<object>();

  constructor(private readonly math: boolean) {}

  /** Defines a label (the first definition wins); text waiting for it becomes stale. Bound: a callback. */
  readonly define = (label: string, ref: LinkReference): void => {
    if (this.refmap.has(label)) return;
    this.refmap.set(label, ref);
    const waiting = this.waiting.get(label);
    if (!waiting) return;
    this.waiting.delete(label);
    for (const target of waiting) this.stale.add(target);
    this.definedSinceFlush += 1;
  };

  /**
   * Renders stale text again once the number of definitions has doubled since the last time: one
   * definition at a time, a long text referring to many of them cost its length per definition.
   */
  flushIfDue(): void {
    if (this.definedSinceFlush > 0 && this.definedSinceFlush >= this.definedAtFlush) this.flush();
  }

  /** Renders again the text that referred to labels defined since the last flush. */
  flush(): void {
    this.definedAtFlush += this.definedSinceFlush;
    this.definedSinceFlush = 0;
    const targets = [...this.stale];
    this.stale.clear();
    for (const target of targets) target.rerender();
  }

  /** The inline context for `target`'s parses: a label it misses renders it again once defined. */
  contextFor(target: Rerenderable): InlineContext {
    return {
      reference: (label) => this.refmap.get(label),
      missing: (label) => {
        let set = this.waiting.get(label);
        if (!set) this.waiting.set(label, (set = new Set()));
        set.add(target);
        this.kept.add(target);
      },
      math: this.math,
    };
  }

  /** `target` used a named reference the loaded table lacks: it renders again when the full table arrives. */
  needsEntities(target: Rerenderable): void {
    this.kept.add(target);
    this.needEntities.add(target);
    this.unsubscribeEntities ??= onEntitiesLoaded(() => {
      this.unsubscribeEntities?.();
      this.unsubscribeEntities = null;
      const targets = [...this.needEntities];
      this.needEntities.clear();
      for (const target of targets) target.rerender();
    });
  }

  /** Whether `target` may be rendered again. */
  keeps(target: object): boolean {
    return this.kept.has(target);
  }
}
