/**
 * Keeps a scroll container pinned to the bottom while the reader is there; stops following as soon as
 * they scroll up (and says so through `atBottom`, for a "jump to latest" button). Nothing but a move up
 * stops it: the browser's own scroll adjustments while content grows (scroll anchoring when something
 * above the end gets taller, such as a message's action row arriving) move down, and the scroll event of
 * our own move to the bottom can arrive after the content grew again, not moving at all.
 *
 * Following never forces a layout: a ResizeObserver on the content (and on the container) runs after the
 * browser's own layout of the frame, once per frame, and only then moves the scroll position. Reading
 * the scroll position happens on the reader's scroll events only.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** Options of {@link ScrollController}. */
export interface ScrollControllerOptions {
  /** Returns the scroll container once rendered. */
  container: () => HTMLElement | null | undefined;
  /** Returns the element holding the content, whose growth is followed. @defaultValue the container's first child */
  content?: () => HTMLElement | null | undefined;
  /** Distance from the bottom (px) still counted as "at the bottom". @defaultValue 24 */
  threshold?: number;
}

/** The reactive controller behind `<pagent-chat>`'s auto-scroll. */
export class ScrollController implements ReactiveController {
  /** True while the view follows new content. */
  atBottom = true;
  /** Times the controller moved the view to the bottom (for tests: at most once per frame). */
  follows = 0;
  private el: HTMLElement | undefined;
  private content: HTMLElement | undefined;
  private observer: ResizeObserver | undefined;
  private readonly threshold: number;
  /** A smooth "jump to latest" is on its way: its scroll events do not mean the reader scrolled. */
  private jumping: ReturnType<typeof setTimeout> | undefined;
  /** The scroll position last seen (or last set), to tell the reader's moves up from the rest. */
  private lastTop = 0;
  private readonly onScroll = (): void => {
    const el = this.el;
    if (!el || this.jumping !== undefined) return;
    const top = el.scrollTop;
    const moved = top - this.lastTop;
    this.lastTop = top;
    const atBottom = el.scrollHeight - top - el.clientHeight <= this.threshold;
    // Only a move up leaves the end. A move down that does not reach the bottom is content that grew
    // while the browser kept something in place (the next resize follows it) or the reader on the way
    // down; no move at all is the late echo of our own scroll to a bottom that has grown since.
    if (atBottom === this.atBottom || (!atBottom && moved >= -1)) return;
    this.atBottom = atBottom;
    this.host.requestUpdate();
  };
  private readonly onScrollEnd = (): void => {
    if (this.jumping === undefined) return;
    clearTimeout(this.jumping);
    this.jumping = undefined;
    // content that arrived during the jump: catch up with it
    this.onResize();
  };
  private readonly onResize = (): void => {
    const el = this.el;
    if (!el || !this.atBottom || this.jumping !== undefined) return;
    // Layout is already done when resize observers run: this read does not force another one.
    this.follows += 1;
    // 'instant' also ends a smooth "jump to latest" still on its way to the old bottom.
    el.scrollTo({ top: el.scrollHeight, behavior: 'instant' });
    this.lastTop = el.scrollHeight - el.clientHeight;
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
    const content = (this.options.content ? this.options.content() : (el?.firstElementChild as HTMLElement | null)) ?? undefined;
    if (el === this.el && content === this.content) return;
    this.el?.removeEventListener('scroll', this.onScroll);
    this.el?.removeEventListener('scrollend', this.onScrollEnd);
    this.observer?.disconnect();
    this.el = el;
    this.content = content;
    if (!el) return;
    el.addEventListener('scroll', this.onScroll, { passive: true });
    el.addEventListener('scrollend', this.onScrollEnd);
    if (typeof ResizeObserver === 'function') {
      this.observer ??= new ResizeObserver(this.onResize);
      this.observer.observe(el);
      if (content) this.observer.observe(content);
    }
  }

  hostDisconnected(): void {
    this.el?.removeEventListener('scroll', this.onScroll);
    this.el?.removeEventListener('scrollend', this.onScrollEnd);
    clearTimeout(this.jumping);
    this.jumping = undefined;
    this.observer?.disconnect();
    this.el = this.content = undefined;
  }

  /**
   * Scrolls to the newest content and follows it again (smoothly unless reduced motion is asked for). At
   * the end already (a send, usually: the new message is not drawn yet), it only keeps following: a
   * smooth scroll there would not move, so its end would never come and following would wait for the
   * fallback timer while the message and the answer grew below the fold.
   */
  jumpToLatest(): void {
    const el = this.el;
    this.atBottom = true;
    this.host.requestUpdate();
    if (!el) return;
    if (el.scrollHeight - el.scrollTop - el.clientHeight <= this.threshold) {
      this.onResize();
      return;
    }
    const reduce = typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
    if (!reduce) {
      clearTimeout(this.jumping);
      // scrollend ends the jump; the timer covers a browser without it
      this.jumping = setTimeout(this.onScrollEnd, 1500);
    }
    el.scrollTo({ top: el.scrollHeight, behavior: reduce ? 'auto' : 'smooth' });
  }
}
