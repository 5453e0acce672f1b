/**
 * The page the store e2e tests drive: it exposes the SDK pieces on `window.pagent` so the tests can
 * call them with `page.evaluate`, and logs the store changes a watched store reports.
 */
import { createSessionStore, type SessionStore, type StoreChange } from '../../../src/store/index.js';
import { Agent } from '../../../src/agent/agent.js';
import { LLM } from '../../../src/agent/llm.js';
import { tool } from '../../../src/agent/tools.js';
import { Session } from '../../../src/agent/session.js';
import { createWorkspace } from '../../../src/store/workspace.js';
import { workspaceTools } from '../../../src/agent/workspace-tools.js';

const stores = new Map<string, SessionStore>();
const changes: StoreChange[] = [];

/** One store per database name for the page's lifetime. */
function storeFor(name: string): SessionStore {
  let store = stores.get(name);
  if (!store) {
    store = createSessionStore({ name });
    stores.set(name, store);
  }
  return store;
}

/** Logs every change `storeFor(name)` reports into `changes`. */
function watch(name: string): void {
  storeFor(name).subscribe((change) => changes.push(change));
}

const pagent = { createSessionStore, Agent, LLM, tool, Session, storeFor, watch, changes, createWorkspace, workspaceTools };

declare global {
  interface Window {
    pagent: typeof pagent;
  }
}

window.pagent = pagent;
document.querySelector('#status')!.textContent = 'ready';
