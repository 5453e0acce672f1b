/**
 * The page the store e2e tests drive: it exposes the SDK pieces on `window.pagent` so the tests can
 * call them with `page.evaluate`, and logs the store changes a watched store reports.
 */
import { createSessionStore, type SessionStore, type StoreChange } from '../../../src/store/index.js';
import { Agent } from '../../../src/agent/agent.js';
import { LLM } from '../../../src/agent/llm/llm.js';
import { tool } from '../../../src/agent/tools/tools.js';
import { Session } from '../../../src/agent/sessions/session.js';
import { createWorkspace } from '../../../src/store/workspace.js';
import { workspaceTools } from '../../../src/agent/tools/workspace-tools.js';
import '../../../src/chat/pagent-chat.js';
import type { PagentChat } from '../../../src/chat/element.js';

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

/** Stores with their own options (e.g. a short `openTimeoutMs`), not shared through `storeFor`. */
function createStore(name: string, openTimeoutMs: number): SessionStore {
  return createSessionStore({ name, openTimeoutMs });
}

/**
 * Another tab's hold on a database: a connection that ignores `versionchange`, and an upgrade to the
 * next version that it therefore blocks. Every other open of that database waits behind the upgrade
 * until `release()` closes the connection.
 */
async function blockDatabase(name: string): Promise<{ release(): Promise<void> }> {
  const open = (version?: number) => (version === undefined ? indexedDB.open(name) : indexedDB.open(name, version));
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const req = open();
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  const upgrade = open(db.version + 1);
  const upgraded = new Promise<IDBDatabase>((resolve, reject) => {
    upgrade.onsuccess = () => resolve(upgrade.result);
    upgrade.onerror = () => reject(upgrade.error);
  });
  await new Promise<void>((resolve) => (upgrade.onblocked = () => resolve()));
  return {
    async release() {
      db.close();
      (await upgraded).close();
    },
  };
}

/** Logs every change `storeFor(name)` reports into `changes`. */
function watch(name: string): void {
  storeFor(name).subscribe((change) => changes.push(change));
}

/**
 * Mounts a `<pagent-chat>` showing conversation `sessionId` of `storeFor(name)`, run by an Agent on the
 * harness model's `script`, with a `lookup` tool that answers after `toolMs`.
 */
function mountChat(name: string, sessionId: string, script: string, toolMs = 0): PagentChat {
  const store = storeFor(name);
  const lookup = tool({
    name: 'lookup',
    description: 'Looks something up.',
    parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
    execute: async (args) => {
      await new Promise((r) => setTimeout(r, toolMs));
      return `found: ${String(args.q)}`;
    },
  });
  const el = document.createElement('pagent-chat');
  el.store = store;
  el.agent = new Agent({ llm: new LLM('scripted', { baseURL: `${location.origin}/__store-llm/${script}/v1`, retries: 0 }), tools: [lookup], store, sessionId });
  document.body.append(el);
  return el;
}

const pagent = { createSessionStore, Agent, LLM, tool, Session, storeFor, watch, changes, createWorkspace, workspaceTools, createStore, blockDatabase, mountChat };

declare global {
  interface Window {
    pagent: typeof pagent;
  }
}

window.pagent = pagent;
document.querySelector('#status')!.textContent = 'ready';
