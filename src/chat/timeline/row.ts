/** Picks the renderer for one timeline row. */
import type { TimelineItem } from './items.js';
import type { RowContext } from './row-context.js';
import { renderAnswer, renderError, renderRunEnd, renderTurn, renderUser } from '../messages/message.js';
import { renderReasoning } from '../messages/reasoning.js';
import { renderToolCard } from '../tool-calls/card.js';

/** Renders one row by its kind. */
export function renderRow(item: TimelineItem, ctx: RowContext): unknown {
  switch (item.kind) {
    case 'user':
      return renderUser(item, ctx);
    case 'answer':
      return renderAnswer(item, ctx);
    case 'reasoning':
      return renderReasoning(item, ctx);
    case 'tool':
      return ctx.renderTool ? ctx.renderTool(item, ctx) : renderToolCard(item, ctx);
    case 'turn':
      return renderTurn(item, ctx);
    case 'error':
      return renderError(item, ctx);
    case 'run-end':
      return renderRunEnd(item, ctx);
    case 'question':
      return ctx.renderQuestion?.(item, ctx);
  }
}
