/**
 * The agent's questions in the element's bundle: a shell that loads the question chunk (`./lazy.ts`: the
 * forms, their strings and styles) when the agent first asks the user something, adds each question to
 * the element's timeline, and renders question rows through the chunk.
 */
import type { RemoteInterrupt } from '../../agent/remote/protocol.js';
import { lazyChunk } from '../lazy-chunk.js';
import type { RowContext } from '../timeline/row-context.js';
import { addQuestion, settleQuestion } from '../timeline/commands.js';
import type { QuestionItem, TimelineState } from '../timeline/items.js';
import type { Questions } from './questions.js';
import type { Lit } from './render.js';

/** The element as the shell sees it: where it renders, and when it has. */
export interface QuestionsElement {
  readonly renderRoot: HTMLElement | DocumentFragment;
  readonly updateComplete: Promise<unknown>;
}

export class QuestionsController {
  private questions: Questions | undefined;

  /** `change` applies a change to the element's timeline and returns the new one. */
  constructor(
    private readonly element: QuestionsElement,
    private readonly lit: Lit,
    private readonly change: (next: (timeline: TimelineState) => TimelineState) => TimelineState,
  ) {}

  private readonly load = lazyChunk(() =>
    import('./lazy.js').then((m) => {
      const { element, change } = this;
      m.adoptStyles(element.renderRoot);
      return (this.questions = new m.Questions({
        lit: this.lit,
        root: () => element.renderRoot,
        rendered: () => element.updateComplete,
        show: (question) => change((timeline) => addQuestion(timeline, question)).items.at(-1)!.key,
        settle: (key, status, answer) => void change((timeline) => settleQuestion(timeline, key, status, answer)),
      }));
    }),
  );

  /**
   * Shows the question with its form and resolves with the user's answer; `undefined` when they dismissed
   * it, when `signal` aborted first, or when the question chunk could not be fetched (then nothing shows).
   */
  async ask(question: RemoteInterrupt, signal: AbortSignal): Promise<unknown> {
    return (await this.load(true))?.ask(question, signal);
  }

  /** A question row (the chunk is here: rows are added only by it). */
  render(item: QuestionItem, ctx: RowContext): unknown {
    return this.questions?.render(item, ctx);
  }
}
