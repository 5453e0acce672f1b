/**
 * Feedback: 👍/👎 under every finished answer (toggle buttons with `aria-pressed`), and after 👎 a small
 * form for an optional comment. Each rating dispatches `pagent-feedback {messageId, rating, comment?,
 * text}` (cancelable: a cancelled rating is neither shown nor kept). With a store and an agent, the rating
 * is kept on the stored answer (`setFeedback`) and shown again when the conversation is reopened.
 */
import type { ReactiveController } from 'lit';
import type { ChatMessage } from '../../agent/messages.js';
import type { MessageFeedback } from '../../store/feedback.js';
import { activePath, type SessionTree } from '../../store/tree.js';
import type { ChatHost } from '../chat-host.js';
import { featureStrings } from '../feature-strings.js';
import { blockText, type AnswerItem } from '../timeline/items.js';
import { feedbackDefaults } from './strings.js';
import { adoptStyles } from './styles.js';

/** The store operations feedback uses: `createSessionStore()` fits. */
interface FeedbackStore {
  loadTree(id: string): Promise<SessionTree | undefined>;
  setFeedback(id: string, seq: number, feedback: MessageFeedback | null): Promise<void>;
}

const answerText = (item: AnswerItem): string => blockText(item.text);
const spoken = (m: ChatMessage): string | undefined => (m.role === 'assistant' && typeof m.content === 'string' && m.content.trim() !== '' ? m.content : undefined);

export class Feedback implements ReactiveController {
  /** Ratings by answer key. */
  private ratings = new Map<string, MessageFeedback>();
  /** The answer whose 👎 comment form is open. */
  private asking: string | undefined;
  /** The first item shown when the stored ratings were last read (another conversation: read again). */
  private shownFirst: string | undefined;
  /** Bumped at every change, so the element makes a new row context (and rows re-render). */
  stamp = 0;

  constructor(private readonly host: ChatHost) {
    host.el.addController(this);
    adoptStyles(host.el.renderRoot);
    this.hostUpdated();
  }

  private get store(): FeedbackStore | undefined {
    const s = this.host.el.store as Partial<FeedbackStore> | undefined;
    return typeof s?.loadTree === 'function' && typeof s.setFeedback === 'function' ? (s as FeedbackStore) : undefined;
  }

  hostUpdated(): void {
    const first = this.host.timeline.items[0]?.key;
    if (first === this.shownFirst) return;
    this.shownFirst = first;
    this.ratings = new Map();
    this.asking = undefined;
    this.bump();
    void this.restore();
  }

  /** The stored answers of the conversation shown, matched to its answer rows in order. */
  private async stored(): Promise<{ id: string; pairs: Array<[AnswerItem, { seq: number; feedback?: MessageFeedback | undefined }]> } | undefined> {
    const store = this.store;
    const agent = this.host.el.agent;
    const id = agent?.sessionId;
    if (!store || id === undefined) return undefined;
    await agent?.whenSaved?.();
    const tree = await store.loadTree(id);
    if (!tree) return undefined;
    const nodes = activePath(tree).filter((n) => spoken(n.message) !== undefined);
    const answers = this.host.timeline.items.filter((i): i is AnswerItem => i.kind === 'answer' && !i.streaming);
    const pairs: Array<[AnswerItem, { seq: number; feedback?: MessageFeedback | undefined }]> = [];
    answers.forEach((item, i) => {
      const node = nodes[i];
      // only an answer whose stored text is the one shown (events pushed by hand are not stored)
      if (node && spoken(node.message)!.trim() === answerText(item).trim()) pairs.push([item, node]);
    });
    return { id, pairs };
  }

  private async restore(): Promise<void> {
    const first = this.shownFirst;
    try {
      const stored = await this.stored();
      if (!stored || first !== this.shownFirst) return;
      for (const [item, node] of stored.pairs) if (node.feedback && !this.ratings.has(item.key)) this.ratings.set(item.key, node.feedback);
      this.bump();
    } catch (err) {
      this.host.reportError(err);
    }
  }

  /** Rates the answer: the event first (the page may veto it), then shown, announced and stored. */
  private async rate(item: AnswerItem, rating: 'up' | 'down', comment?: string): Promise<void> {
    this.asking = undefined;
    this.bump();
    let place: { id: string; seq: number } | undefined;
    try {
      const stored = await this.stored();
      const node = stored?.pairs.find(([answer]) => answer.key === item.key)?.[1];
      if (stored && node) place = { id: stored.id, seq: node.seq };
    } catch (err) {
      this.host.reportError(err);
    }
    const feedback: MessageFeedback = comment ? { rating, comment } : { rating };
    const messageId = place ? `${place.id}:${place.seq}` : item.key;
    if (!this.host.event('pagent-feedback', { messageId, ...feedback, text: answerText(item) })) return;
    this.ratings.set(item.key, feedback);
    this.host.announce(this.strings().feedbackThanks);
    this.bump();
    if (place) await this.store!.setFeedback(place.id, place.seq, feedback).catch((err: unknown) => this.host.reportError(err));
  }

  private strings() {
    return featureStrings(feedbackDefaults, this.host.locale(), this.host.strings());
  }

  private bump(): void {
    this.stamp += 1;
    this.host.requestUpdate();
  }

  private focusLater(selector: string): void {
    void this.host.el.updateComplete.then(() => this.host.el.renderRoot.querySelector<HTMLElement>(selector)?.focus());
  }

  /** 👍/👎 under a finished answer, and the comment form after 👎. */
  render(item: AnswerItem): unknown {
    const { html, nothing } = this.host.lit;
    if (item.streaming || !this.host.el.feedback) return nothing;
    const s = this.strings();
    const rating = this.ratings.get(item.key)?.rating;
    const asking = this.asking === item.key;
    const down = (): void => {
      this.asking = item.key;
      this.bump();
      this.focusLater(`.feedback-form[data-key="${item.key}"] textarea`);
    };
    const close = (e: Event, send: boolean): void => {
      const text = (e.currentTarget as HTMLElement).closest('.feedback-form')!.querySelector('textarea')!.value.trim();
      void this.rate(item, 'down', send && text !== '' ? text : undefined);
      this.focusLater(`.feedback[data-key="${item.key}"] [part~="feedback-down"]`);
    };
    return html`<span part="feedback" class="feedback" role="group" aria-label=${s.feedback} data-key=${item.key}>
        <button part="feedback-up" type="button" aria-label=${s.feedbackUp} title=${s.feedbackUp} aria-pressed=${rating === 'up' ? 'true' : 'false'}
          @click=${() => rating !== 'up' && void this.rate(item, 'up')}>👍</button>
        <button part="feedback-down" type="button" aria-label=${s.feedbackDown} title=${s.feedbackDown} aria-pressed=${rating === 'down' ? 'true' : 'false'}
          aria-expanded=${asking ? 'true' : 'false'} @click=${() => (asking ? void this.rate(item, 'down') : rating !== 'down' && down())}>👎</button>
      </span>${asking
        ? html`<div part="feedback-form" class="feedback-form" data-key=${item.key}>
            <textarea part="feedback-comment" rows="2" maxlength="4000" aria-label=${s.feedbackComment} placeholder=${s.feedbackComment}
              @keydown=${(e: KeyboardEvent) => {
                if (e.key === 'Escape') {
                  e.preventDefault();
                  close(e, false);
                }
              }}></textarea>
            <button part="feedback-send" type="button" @click=${(e: Event) => close(e, true)}>${s.feedbackSend}</button>
            <button part="feedback-skip" type="button" @click=${(e: Event) => close(e, false)}>${s.feedbackSkip}</button>
          </div>`
        : nothing}`;
  }
}
