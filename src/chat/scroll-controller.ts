/**
 * Keeps a scroll container pinned to the bottom while the reader is there; stops following as soon as
 * they scroll up (and says so through `atBottom`, for a "jump to latest" button).
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** Options of {@link ScrollController}. */
export interface ScrollControllerOptions {
  /** Returns the scroll container once rendered. */
  container: () => HTMLElement | null | undefined;
  /** Distance from the bottom (px) still counted as "at the bottom". @defaultValue 24 */
  threshold?: number;
}

/** The reactive controller behind `<pagent-chat>`'s auto-scroll. */
export class ScrollController implements ReactiveController {
  /** True while the view follows new content. */
  atBottom = true;
  private el: HTMLElement | undefined;
  private readonly threshold: number;
  private readonly onScroll = (): void => {
    const el = this.el;
    if (!el) return;
    const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight <= this.threshold;
    if (atBottom !== this.atBottom) {
      this.atBottom = atBottom;
      this.host.requestUpdate();
    }
  };

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly options: ScrollControllerOptions,
  ) {
    this.threshold = options.threshold ?? 24;
    host.addController(this);
  }

  hostUpdated(): void {
    const el = this.options.container() ?? undefined;
    if (el !== this.el) {
      this.el?.removeEventListener('scroll', this.onScroll);
      this.el = el;
      el?.addEventListener('scroll', this.onScroll, { passive: true });
    }
    if (el && this.atBottom) el.scrollTop = el.scrollHeight;
  }

  hostDisconnected(): void {
    this.el?.removeEventListener('scroll', this.onScroll);
    this.el = undefined;
  }

  /** Scrolls to the newest content and follows it again (smoothly unless reduced motion is asked for). */
  jumpToLatest(): void {
    const el = this.el;
    this.atBottom = true;
    this.host.requestUpdate();
    if (!el) return;
    const reduce = typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
    el.scrollTo({ top: el.scrollHeight, behavior: reduce ? 'auto' : 'smooth' });
  }
}
