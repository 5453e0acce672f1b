// WireClient: a server's stream as typed events. `switch (event.method)` narrows `params`.
import { WireClient } from 'pagent-web';

export default async function run(target: HTMLElement): Promise<void> {
  const out = document.createElement('pre');
  out.className = 'output';
  target.append(out);
  const client = new WireClient('/demo/api/chat');
  for await (const event of client.stream({ message: 'What time is it?' })) {
    switch (event.method) {
      case 'ToolCallBegin':
        out.append(`tool call: ${event.params.name}(${event.params.arguments})\n`);
        break;
      case 'ToolResult':
        out.append(`tool result: ${event.params.content}\n`);
        break;
      case 'TextDelta':
        out.append(event.params.text);
        break;
      case 'RunEnd':
        out.append(`\nRunEnd: ${event.params.stop_reason ?? ''}\n`);
        break;
    }
  }
}
