import type { ChatClient } from 'pagent-web/element';
import type { WireEvent } from 'pagent-web';

const step = { content: '', tool_calls: [], reasoning_content: '', usage: null };

/** A client that streams one scripted run answering `answer`, a piece at a time. */
export function scriptedClient(answer: string): ChatClient {
  return {
    async *stream(body) {
      const input = (body as { message: string }).message;
      const events: WireEvent[] = [
        { method: 'RunBegin', params: { user_input: input } },
        { method: 'TurnBegin', params: { turn: 0 } },
        ...answer.split(/(?<= )/).map((text): WireEvent => ({ method: 'TextDelta', params: { text } })),
        { method: 'StepEnd', params: { ...step, content: answer } },
        { method: 'TurnEnd', params: { turn: 0, stopped: true } },
        { method: 'RunEnd', params: { ...step, content: answer, stop_reason: 'no_tool_calls' } },
      ];
      for (const event of events) {
        await new Promise((r) => setTimeout(r, 5));
        yield event;
      }
    },
  };
}
