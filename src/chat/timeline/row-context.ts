/** What the item renderers need from the element: strings and callbacks, nothing stateful. */
import type { PagentChatStrings } from '../i18n.js';
import type { RendererFactory } from '../messages/stream-text.js';
import type { ChatAttachment } from '../attachments/types.js';
import type { ToolRenderers } from '../tool-calls/renderers.js';
import type { RendererFailure } from '../tool-calls/renderer-failure.js';
import type { ToolTextPart } from '../tool-calls/text.js';
import type { AnswerItem, QuestionItem, RunEndItem, ToolItem, UserItem } from './items.js';

/** What every row renderer of the timeline is given (one object per strings, locale or source change). */
export interface RowContext {
  readonly strings: PagentChatStrings;
  /** BCP 47 tag used for number formatting. */
  readonly locale: string;
  /** The renderer for answer text (markdown when available); other text is always plain. */
  readonly answerRenderer: RendererFactory;
  /** Plain-text renderer for reasoning. */
  readonly textRenderer: RendererFactory;
  /** Resolves a pending approval for a tool call. */
  readonly onApproval: (callId: string, approved: boolean) => void;
  /** The page's tool renderers, if any. */
  readonly toolRenderers?: ToolRenderers | undefined;
  /** Draws a tool row through `toolRenderers` (from their chunk, once it is loaded; the default card until then). */
  readonly renderTool?: ((item: ToolItem, ctx: RowContext) => unknown) | undefined;
  /**
   * "Show more" and Copy under a card's text longer than one slice (from their chunk, once it is loaded;
   * `undefined` until then, and asking for it fetches the chunk).
   */
  readonly renderLongText?: (text: string, part: ToolTextPart, ctx: RowContext, json?: boolean) => unknown;
  /** Told when a tool renderer failed (the default card shows instead), with what it threw, if anything. */
  readonly onRenderError?: (failure: RendererFailure, cause: unknown) => void;
  /** Re-runs the failed run of an error card, in place; absent when the element has no source to run against. */
  readonly onRetry: ((errorKey: string) => void) | undefined;
  /** The action row (or editor) under a finished user message or answer; absent when there is none. */
  readonly messageActions?: (item: UserItem | AnswerItem) => unknown;
  /** The key of the user message being edited (its bubble gives way to the editor). */
  readonly editingKey?: string | undefined;
  /** A question of the agent, with its form while it is asked (the question chunk renders it). */
  readonly renderQuestion?: (item: QuestionItem, ctx: RowContext) => unknown;
  /** Draws more of the answer or reasoning `key`, too long to draw at once. */
  readonly onShowMore?: (key: string) => void;
  /** The attachments of a sent message (thumbnails and file chips). */
  readonly renderAttachments?: (list: readonly ChatAttachment[]) => unknown;
  /** Read aloud and 👍/👎 of a finished answer, in its action row (from their chunks, once loaded). */
  readonly answerTools?: (item: AnswerItem) => unknown;
  /** The mark (and Continue) under a run a reload cut (`stop_reason: "interrupted"`); absent until its part is loaded. */
  readonly interrupted?: (item: RunEndItem) => unknown;
}
