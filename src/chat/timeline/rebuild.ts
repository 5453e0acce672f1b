/**
 * A stored conversation (OpenAI-shaped messages) rebuilt as a timeline, through the same reducer as a
 * live run, so a reopened conversation looks as it did.
 */
import type { ChatMessage } from '../../agent/messages.js';
import { emptyStep, type StopReason, type WireEvent } from '../../wire/events.js';
import { splitParts } from '../attachments/content-parts.js';
import { addUserMessage } from './commands.js';
import { createTimeline, type TimelineState } from './items.js';
import { reduceTimeline } from './reducer.js';

/**
 * Builds a timeline from a stored conversation (OpenAI-shaped messages): user messages, answers,
 * reasoning, tool calls matched to their results by id. A tool call without a result is shown cancelled.
 * `lastStop`: the stop reason of the last run (`"interrupted"` for a turn a reload cut).
 */
export function timelineFromMessages(messages: readonly ChatMessage[], lastStop?: StopReason): TimelineState {
  let s: TimelineState = createTimeline();
  const events: WireEvent[] = [];
  /** The pending run already has a step or a tool event, so the next assistant message starts a turn. */
  let stepped = false;
  const flush = (stop?: StopReason): void => {
    stepped = false;
    if (events.length === 0) return;
    events.push({ method: 'RunEnd', params: { ...emptyStep(), ...(stop && { stop_reason: stop }) } });
    for (const event of events) s = reduceTimeline(s, event);
    events.length = 0;
  };
  let turn = 0;
  for (const m of messages) {
    if (m.role === 'user') {
      flush();
      turn = 0;
      let text = m.content;
      if (typeof text !== 'string') {
        const split = splitParts(text);
        text = split.text;
        s = addUserMessage(s, text, split.attachments);
      }
      events.push({ method: 'RunBegin', params: { user_input: text } }, { method: 'TurnBegin', params: { turn: 0 } });
    } else if (m.role === 'assistant') {
      if (events.length === 0) events.push({ method: 'RunBegin', params: { user_input: '' } }, { method: 'TurnBegin', params: { turn: 0 } });
      else if (stepped) {
        turn += 1;
        events.push({ method: 'TurnBegin', params: { turn } });
      }
      const calls = m.tool_calls ?? [];
      stepped = true;
      events.push({
        method: 'StepEnd',
        params: { content: m.content ?? '', tool_calls: calls, reasoning_content: m.reasoning_content ?? '', usage: null },
      });
      for (const call of calls) {
        events.push({ method: 'ToolCallBegin', params: { tool_call_id: call.id, name: call.function.name, arguments: call.function.arguments } });
      }
    } else if (m.role === 'tool') {
      stepped = true;
      events.push({ method: 'ToolResult', params: { tool_call_id: m.tool_call_id, name: '', content: m.content } });
    }
  }
  flush(lastStop);
  return s;
}
