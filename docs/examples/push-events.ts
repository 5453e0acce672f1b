// Events from anywhere: push() renders each event as it comes, with the same reducer as a stream.
// The answer is Markdown, rendered as it streams (the code block is highlighted once its lines end).
import 'pagent-web/pagent-chat.js';
import type { WireEvent } from 'pagent-web';

export default async function run(target: HTMLElement): Promise<void> {
  const chat = document.createElement('pagent-chat');
  target.append(chat);
  const answer = ['Pushed **by hand**: ', 'no server at all.\n\n', '```ts\nconst n: number = 42;\n```\n'];
  const events: WireEvent[] = [
    { method: 'RunBegin', params: { user_input: 'Show me push()' } },
    { method: 'TurnBegin', params: { turn: 0 } },
    ...answer.map((text): WireEvent => ({ method: 'TextDelta', params: { text } })),
    { method: 'TurnEnd', params: { turn: 0, stopped: true } },
    { method: 'RunEnd', params: { content: answer.join(''), tool_calls: [], reasoning_content: '', usage: null, stop_reason: 'no_tool_calls' } },
  ];
  for (const event of events) {
    chat.push(event);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
