/**
 * The agent's questions, a chunk loaded when the agent first asks one: each question shows in the
 * timeline as a row of its own with a form (see ./schema.ts for which schemas get fields), and the run
 * waits for the user to submit it or dismiss it. A question the run's end cuts (Stop, another message,
 * another conversation, the element leaving the DOM: the run's signal aborts) resolves as dismissed and
 * shows "Not answered".
 */
import type { RemoteInterrupt } from '../../agent/remote/protocol.js';
import type { RowContext } from '../timeline/row-context.js';
import type { QuestionItem, QuestionStatus } from '../timeline/items.js';
import { questionId, renderQuestion, type Lit } from './render.js';
import { questionForm, readAnswer, type QuestionForm } from './schema.js';
import { questionStrings, type QuestionStrings } from './strings.js';

/** What the questions need from the element. */
export interface QuestionsHost {
  readonly lit: Lit;
  /** The element's shadow root. */
  root(): HTMLElement | DocumentFragment;
  /** Settles once the element has rendered what changed so far. */
  rendered(): Promise<unknown>;
  /** Adds the question to the timeline, asked; returns its row's key. */
  show(question: RemoteInterrupt): string;
  /** Records how the question of row `key` ended. */
  settle(key: string, status: Exclude<QuestionStatus, 'asked'>, answer?: unknown): void;
}

/** Asks the agent's questions in the timeline and renders their rows. */
export class Questions {
  /** Per asked row: ends it with the user's answer (`undefined`: dismissed). */
  private readonly waiting = new Map<string, (status: 'answered' | 'dismissed', answer?: unknown) => void>();
  private readonly forms = new WeakMap<RemoteInterrupt, QuestionForm>();
  private strings: { from: RowContext['strings']; locale: string; value: QuestionStrings } | undefined;

  constructor(private readonly host: QuestionsHost) {}

  /**
   * Shows the question and resolves with the user's answer (the payload its form makes), or `undefined`
   * when they dismissed it or `signal` aborted first. Focus moves to the form.
   */
  ask(question: RemoteInterrupt, signal: AbortSignal): Promise<unknown> {
    if (signal.aborted) return Promise.resolve(undefined);
    const key = this.host.show(question);
    return new Promise((resolve) => {
      const end = (status: 'answered' | 'dismissed' | 'cancelled', answer?: unknown): void => {
        signal.removeEventListener('abort', onAbort);
        this.waiting.delete(key);
        this.host.settle(key, status, answer);
        resolve(answer);
      };
      const onAbort = (): void => end('cancelled');
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(key, end);
      void this.focus(key);
    });
  }

  /** A question row: the form while it is asked, else what became of it. */
  render(item: QuestionItem, ctx: RowContext): unknown {
    const s = this.stringsFor(ctx);
    const end = (status: 'answered' | 'dismissed', answer?: unknown): void => this.waiting.get(item.key)?.(status, answer);
    return renderQuestion(this.host.lit, item, this.formOf(item.question), s, ctx.locale, {
      submit: (form) => {
        let answer: unknown;
        try {
          answer = readAnswer(this.formOf(item.question), new FormData(form));
        } catch {
          const field = form.elements.namedItem('json') as HTMLTextAreaElement | null;
          field?.setCustomValidity(s.questionJsonInvalid);
          field?.reportValidity();
          return;
        }
        end('answered', answer);
      },
      dismiss: () => end('dismissed'),
      edited: (field) => field.setCustomValidity(''),
    });
  }

  private formOf(question: RemoteInterrupt): QuestionForm {
    let form = this.forms.get(question);
    if (!form) this.forms.set(question, (form = questionForm(question.responseSchema)));
    return form;
  }

  private stringsFor(ctx: RowContext): QuestionStrings {
    const memo = this.strings;
    if (memo && memo.from === ctx.strings && memo.locale === ctx.locale) return memo.value;
    return (this.strings = { from: ctx.strings, locale: ctx.locale, value: questionStrings(ctx.locale, ctx.strings) }).value;
  }

  /** Moves focus to the question's first control once it is on screen (it scrolls into view with it). */
  private async focus(key: string): Promise<void> {
    await this.host.rendered();
    const row = this.host.root().querySelector(`#${questionId(key)}`);
    row?.querySelector<HTMLElement>('input, select, textarea, button')?.focus();
  }
}
