// The demo app (see index.html): for now, a corpus capture streamed through decodeWireStream into a
// plain list, a few bytes at a time, the way a slow network would deliver it.
import { decodeWireStream, type WireEvent } from '../src/index.js';
import capture from '../test/fixtures/pagent/tool_stream.ndjson?raw';

function slowBody(text: string, chunkBytes = 24, delayMs = 15): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let pos = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (pos >= bytes.length) return controller.close();
      await new Promise((r) => setTimeout(r, delayMs));
      controller.enqueue(bytes.slice(pos, pos + chunkBytes));
      pos += chunkBytes;
    },
  });
}

function describe(event: WireEvent): string {
  switch (event.method) {
    case 'TextDelta':
    case 'ReasoningDelta':
      return JSON.stringify(event.params.text);
    case 'ToolCallBegin':
      return `${event.params.name}(${event.params.arguments})`;
    case 'ToolResult':
      return `${event.params.name} → ${event.params.content}`;
    case 'RunEnd':
      return JSON.stringify(event.params.content);
    default:
      return JSON.stringify(event.params);
  }
}

const app = document.querySelector<HTMLElement>('#app')!;
const list = document.createElement('ol');
list.id = 'events';
app.append(list);

for await (const event of decodeWireStream(slowBody(capture))) {
  const item = document.createElement('li');
  item.dataset['method'] = event.method;
  item.textContent = `${event.method} ${describe(event)}`;
  list.append(item);
}
app.dataset['done'] = 'true';
