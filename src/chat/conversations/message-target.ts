/**
 * Finds the rendered row of a stored message, so a search hit can be shown where it is. The timeline does
 * not keep message indices; a message's row is found by kind and ordinal instead: the timeline of the
 * messages up to and including it ends with that message's rows, and rows of a kind keep their order.
 */
import type { ChatMessage } from '../../agent/messages.js';
import { timelineFromMessages } from '../timeline/rebuild.js';

/** The `n`th row (0-based) of a kind among the rows of its kind. */
export interface MessageTarget {
  kind: 'user' | 'answer' | 'tool';
  n: number;
}

/** Where the message at `index` is shown, or `undefined` when it has no row of its own (a system message). */
export function messageTarget(messages: readonly ChatMessage[], index: number): MessageTarget | undefined {
  const message = messages[index];
  if (!message || message.role === 'system') return undefined;
  const items = timelineFromMessages(messages.slice(0, index + 1)).items;
  const count = (kind: MessageTarget['kind']): number => items.filter((i) => i.kind === kind).length;
  if (message.role === 'user') return { kind: 'user', n: count('user') - 1 };
  if (message.role === 'assistant') {
    // an answer's row when it has text; else the card of its first tool call
    if (message.content) return { kind: 'answer', n: count('answer') - 1 };
    const first = message.tool_calls?.[0];
    if (!first) return undefined;
    return toolTarget(items, first.id);
  }
  return toolTarget(items, message.tool_call_id);
}

function toolTarget(items: ReturnType<typeof timelineFromMessages>['items'], callId: string): MessageTarget | undefined {
  const tools = items.filter((i) => i.kind === 'tool');
  const n = tools.findIndex((t) => t.callId === callId);
  return n < 0 ? undefined : { kind: 'tool', n };
}

const SELECTOR: Record<MessageTarget['kind'], string> = {
  user: '[part~="user"]',
  answer: '[part~="answer"]',
  tool: '[part~="tool-call"]',
};

/** The rendered row of a target inside the element's timeline, if it is there. */
export function targetElement(timeline: ParentNode, target: MessageTarget): HTMLElement | undefined {
  return timeline.querySelectorAll<HTMLElement>(SELECTOR[target.kind])[target.n];
}

/**
 * Scrolls the row of `messages[index]` into view inside `timeline`, marks it (`data-hit`) for a few
 * seconds and moves focus to it, so a screen reader reads the message that was searched for.
 */
export function revealMessage(timeline: ParentNode, messages: readonly ChatMessage[], index: number): void {
  const target = messageTarget(messages, index);
  const row = target && targetElement(timeline, target);
  if (!row) return;
  row.dataset['hit'] = '';
  row.tabIndex = -1;
  row.scrollIntoView({ block: 'center' });
  row.focus({ preventScroll: true });
  keepPlaced(timeline, row);
  setTimeout(() => delete row.dataset['hit'], 4000);
}

/** How long at most a revealed row is kept in place while the rows around it are drawn. */
const KEEP_PLACED_MS = 60_000;
const READER_MOVES = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;

/**
 * Keeps `row` centred while the timeline's rows grow (answers draw their Markdown after the first paint,
 * a large one in slices over seconds), until the reader moves the view or a minute has passed: the
 * browser's scroll anchoring alone may pick an anchor inside the answer that grows and let the row slide.
 */
function keepPlaced(timeline: ParentNode, row: HTMLElement): void {
  const rows = row.parentElement;
  if (!rows || typeof ResizeObserver !== 'function') return;
  const observer = new ResizeObserver(() => row.scrollIntoView({ block: 'center' }));
  const stop = (): void => {
    observer.disconnect();
    clearTimeout(timer);
    for (const type of READER_MOVES) timeline.removeEventListener(type, stop);
  };
  const timer = setTimeout(stop, KEEP_PLACED_MS);
  for (const type of READER_MOVES) timeline.addEventListener(type, stop, { passive: true });
  observer.observe(rows);
}
