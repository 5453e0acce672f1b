// The demo app (see index.html): one <pagent-chat>, three sources.
//   - "wire":  the element POSTs to the local wire server (/demo/api/chat), which runs an Agent in Node
//              against the local scripted model and streams NDJSON — the default, no key, no network;
//              "wire-ag-ui" / "wire-ai-sdk": the same server writing AG-UI / the AI SDK UI message stream.
//   - "local": an in-browser Agent against the same local scripted model, sessions in IndexedDB.
//   - "own":   an in-browser Agent against any OpenAI-compatible endpoint with the user's own key.
// Each agent source keeps one Agent; the element's conversation list switches its session (useSession).
import '../src/chat/pagent-chat.js';
import { Agent, LLM, createKeyStore, createSessionStore, createWorkspace, workspaceTools, type Tool, type Workspace } from '../src/index.js';
import { demoTools, DEMO_SYSTEM_PROMPT } from './tools.js';
import { Session } from '../src/index.js';

type Source = 'wire' | 'wire-ag-ui' | 'wire-ai-sdk' | 'local' | 'own';

const chat = document.querySelector('pagent-chat')!;
const sourceSelect = document.querySelector<HTMLSelectElement>('#source')!;
const langSelect = document.querySelector<HTMLSelectElement>('#lang')!;
const themeSelect = document.querySelector<HTMLSelectElement>('#theme')!;
const endpointForm = document.querySelector<HTMLFormElement>('#endpoint')!;
const status = document.querySelector<HTMLOutputElement>('#status')!;

const store = createSessionStore({ name: 'pagent-demo' });
const keys = createKeyStore({ name: 'pagent-demo-keys' });

function newSessionId(): string {
  return `demo-${crypto.randomUUID?.() ?? Date.now().toString(36)}`;
}

/** One Agent per agent source, kept while the page lives. */
const agents: { local?: Agent; own?: Agent } = {};

/** The in-browser agents' workspace (OPFS): the file tools write here and the files panel shows it. */
let workspace: Workspace | undefined;
const workspaceReady = createWorkspace({ name: 'pagent-demo' }).then(
  (ws) => (workspace = ws),
  () => undefined, // no OPFS here: the agents work without file tools
);

function makeAgent(llm: LLM, sessionId = newSessionId()): Agent {
  const tools: Tool<never>[] = [...demoTools, ...(workspace ? workspaceTools(workspace) : [])];
  return new Agent({ llm, session: new Session(DEMO_SYSTEM_PROMPT), tools, store, sessionId });
}

/** Clears what the previous source showed (without touching that source's agent session). */
function detach(): void {
  chat.agent = undefined;
  chat.workspace = undefined;
  chat.src = undefined;
  chat.reset();
}

/** The wire server in one of the protocols it writes (the element detects which one it reads). */
function useWire(source: 'wire' | 'wire-ag-ui' | 'wire-ai-sdk'): void {
  detach();
  chat.store = undefined;
  chat.src = source === 'wire' ? '/demo/api/chat' : `/demo/api/chat?dialect=${source.slice('wire-'.length)}`;
  status.value = `Wire server: ${chat.src} (an Agent in Node, local scripted model)`;
}

function useAgent(agent: Agent, label: string): void {
  if (chat.agent !== agent) detach();
  chat.store = store;
  // the element shows the agent's stored conversation and its list switches the agent's session
  chat.agent = agent;
  chat.workspace = workspace;
  status.value = label;
}

function useLocalAgent(): void {
  agents.local ??= makeAgent(new LLM('scripted', { baseURL: new URL('/demo/v1', location.href).href }));
  useAgent(agents.local, 'In-browser Agent → local scripted model (/demo/v1), sessions in IndexedDB');
}

async function useOwnEndpoint(): Promise<void> {
  const data = new FormData(endpointForm);
  const baseURL = String(data.get('baseURL') ?? '').trim();
  const model = String(data.get('model') ?? '').trim();
  let apiKey = String(data.get('apiKey') ?? '');
  if (!baseURL || !model) {
    status.value = 'Enter a base URL and a model.';
    return;
  }
  if (data.get('remember') === 'on' && apiKey) await keys.remember(baseURL, apiKey);
  if (!apiKey) apiKey = (await keys.recall(baseURL)) ?? '';
  // The key lives in this LLM object only (and in the key store if the user ticked "remember").
  endpointForm.querySelector<HTMLInputElement>('[name=apiKey]')!.value = '';
  // a new endpoint or key needs a new LLM; the agent built on it continues the same conversation
  agents.own = makeAgent(new LLM(model, { baseURL, apiKey: apiKey || undefined }), agents.own?.sessionId);
  useAgent(agents.own, `In-browser Agent → ${baseURL} (${model})`);
}

function applySource(source: Source): void {
  endpointForm.hidden = source !== 'own';
  if (source === 'wire' || source === 'wire-ag-ui' || source === 'wire-ai-sdk') useWire(source);
  else if (source === 'local') useLocalAgent();
  else if (agents.own) useAgent(agents.own, 'In-browser Agent → your endpoint');
  else {
    detach();
    status.value = 'Fill in your endpoint, then "Use this endpoint". The key is sent only to that base URL.';
  }
}

sourceSelect.addEventListener('change', () => applySource(sourceSelect.value as Source));
langSelect.addEventListener('change', () => (chat.lang = langSelect.value));
themeSelect.addEventListener('change', () => (chat.theme = themeSelect.value as 'light' | 'dark' | 'auto'));
endpointForm.addEventListener('submit', (e) => {
  e.preventDefault();
  void useOwnEndpoint();
});
document.querySelector('#forget')!.addEventListener('click', () => {
  void keys.forgetAll().then(() => (status.value = 'Remembered keys removed.'));
});

const params = new URLSearchParams(location.search);
const initial = (params.get('source') as Source | null) ?? 'wire';
sourceSelect.value = initial;
if (params.get('lang')) chat.lang = langSelect.value = params.get('lang')!;
if (params.get('theme')) chat.theme = themeSelect.value = params.get('theme') as 'light' | 'dark' | 'auto';
void workspaceReady.then(() => {
  applySource(initial);
  document.body.dataset['ready'] = 'true';
});
