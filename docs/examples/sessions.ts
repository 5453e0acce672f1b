// Conversations kept in IndexedDB: an Agent given a store and a session id saves every turn; the store
// lists conversations without loading their messages.
import { Agent, LLM, createSessionStore } from 'pagent-web';

export default async function run(target: HTMLElement): Promise<void> {
  const out = document.createElement('pre');
  out.className = 'output';
  target.append(out);
  const store = createSessionStore({ name: 'pagent-docs-example' });
  const llm = new LLM('scripted', { baseURL: new URL('/demo/v1', location.href).href });
  const agent = new Agent({ llm, store, sessionId: 'docs-sessions-example' });
  await agent.run('Think about it: what is the answer?');
  for (const s of await store.list()) out.append(`${s.id}: "${s.title}", ${s.messageCount} messages\n`);
}
