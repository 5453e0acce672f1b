// The same run in three protocols: pagent NDJSON, AG-UI and the AI SDK UI message stream (both SSE).
// WireClient tells them apart by itself and yields the same events for each.
import { WireClient } from 'pagent-web';

export default async function run(target: HTMLElement): Promise<void> {
  const out = document.createElement('pre');
  out.className = 'output';
  target.append(out);
  for (const dialect of ['pagent', 'ag-ui', 'ai-sdk']) {
    const methods: string[] = [];
    for await (const event of new WireClient(`/demo/api/chat?dialect=${dialect}`).stream({ message: 'Hello' })) {
      if (methods.at(-1) !== event.method) methods.push(event.method);
    }
    out.append(`${dialect}: ${methods.join(' ')}\n`);
  }
}
