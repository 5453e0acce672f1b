// What goes wrong arrives as events, never as exceptions: a server error is RunError{code: "http"} then
// RunEnd, and a line the event schema rejects goes to onDecodeError while the stream goes on.
// A fetch function stands in for the two servers.
import { WireClient } from 'pagent-web';

const failing: typeof fetch = async () =>
  new Response(JSON.stringify({ detail: 'The model is overloaded' }), { status: 503, headers: { 'Content-Type': 'application/json' } });
const sloppy: typeof fetch = async () =>
  new Response(
    [
      '{"jsonrpc": "2.0", "method": "RunBegin", "params": {"user_input": "Hi"}}',
      '{"jsonrpc": "2.0", "method": "TurnEnd", "params": {"turn": 0}}',
      '{"jsonrpc": "2.0", "method": "RunEnd", "params": {"content": "", "tool_calls": [], "reasoning_content": "", "usage": null}}',
    ].join('\n'),
    { headers: { 'Content-Type': 'application/x-ndjson' } },
  );

export default async function run(target: HTMLElement): Promise<void> {
  const out = document.createElement('pre');
  out.className = 'output';
  target.append(out);
  for await (const event of new WireClient('/api/chat', { fetch: failing }).stream({ message: 'Hi' })) {
    if (event.method === 'RunError') out.append(`RunError ${event.params.code} ${event.params.status ?? ''}: ${event.params.message}\n`);
    if (event.method === 'RunEnd') out.append(`RunEnd ${event.params.stop_reason ?? ''}\n`);
  }
  const client = new WireClient('/api/chat', { fetch: sloppy, onDecodeError: (err) => out.append(`onDecodeError: ${err.message}\n`) });
  for await (const event of client.stream({ message: 'Hi' })) out.append(`${event.method}\n`);
}
