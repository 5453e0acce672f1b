// The demo app (see index.html): one <pagent-chat>, three sources.
//   - "wire":  the element POSTs to the local wire server (/demo/api/chat), which runs an Agent in Node
//              against the local scripted model and streams NDJSON — the default, no key, no network;
//              "wire-ag-ui" / "wire-ai-sdk": the same server writing AG-UI / the AI SDK UI message stream.
//   - "local": an in-browser Agent against the same local scripted model, sessions in IndexedDB, files in
//              the workspace (OPFS) that the element's files panel shows.
//   - "own":   an in-browser Agent against the user's own endpoint and key: any OpenAI-compatible server,
//              OpenAI's Responses API or Anthropic's Messages API.
//   - "remote-ai-sdk" / "remote-ag-ui": a RemoteAgent holding the conversation with the local AI SDK route
//              (/demo/api/ai-sdk) or AG-UI agent (/demo/api/ag-ui): stateless back ends sent the whole
//              history every request; the page runs their `region` calls; sessions in IndexedDB.
// Each agent source keeps one agent; the element's conversation list switches its session (useSession).
// The source, language and theme live in the URL (?source=local&lang=ja&theme=dark); the conversation an
// agent source last showed is reopened after a reload.
import '../src/chat/pagent-chat.js';
import {
  Agent,
  LLM,
  PagentError,
  PRESET_BASE_URLS,
  RemoteAgent,
  Session,
  region,
  createKeyStore,
  createSessionStore,
  createWorkspace,
  workspaceTools,
  type ModelApiName,
  type Tool,
  type Workspace,
} from '../src/index.js';
import { demoLang, demoStrings, fill, type DemoLang, type DemoStrings } from './i18n.js';
import { demoTools, DEMO_SYSTEM_PROMPT } from './tools.js';
import { demoRenderers } from './weather-card.js';

type Source = 'wire' | 'wire-ag-ui' | 'wire-ai-sdk' | 'local' | 'own' | 'remote-ai-sdk' | 'remote-ag-ui';
const SOURCES: readonly Source[] = ['wire', 'wire-ag-ui', 'wire-ai-sdk', 'local', 'own', 'remote-ai-sdk', 'remote-ag-ui'];
type RemoteSource = 'remote-ai-sdk' | 'remote-ag-ui';
type Theme = 'light' | 'dark' | 'auto';

const chat = document.querySelector('pagent-chat')!;
chat.renderers = demoRenderers;
const sourceSelect = document.querySelector<HTMLSelectElement>('#source')!;
const langSelect = document.querySelector<HTMLSelectElement>('#lang')!;
const themeSelect = document.querySelector<HTMLSelectElement>('#theme')!;
const endpointForm = document.querySelector<HTMLFormElement>('#endpoint')!;
const status = document.querySelector<HTMLOutputElement>('#status')!;
const field = (name: string): HTMLInputElement => endpointForm.querySelector<HTMLInputElement>(`[name=${name}]`)!;
const apiSelect = endpointForm.querySelector<HTMLSelectElement>('[name=api]')!;
/** Where each API's own service lives, shown as the base URL's placeholder. */
const API_BASE_URLS: Record<ModelApiName, string> = {
  'chat-completions': PRESET_BASE_URLS.OpenAI,
  responses: PRESET_BASE_URLS.OpenAIResponses,
  'anthropic-messages': PRESET_BASE_URLS.Anthropic,
};
const API_MODELS: Record<ModelApiName, string> = { 'chat-completions': 'gpt-4o-mini', responses: 'gpt-5-mini', 'anthropic-messages': 'claude-sonnet-4-5' };
const selectedApi = (): ModelApiName => apiSelect.value as ModelApiName;
function showApiHints(): void {
  field('baseURL').placeholder = API_BASE_URLS[selectedApi()];
  field('model').placeholder = API_MODELS[selectedApi()];
}

const store = createSessionStore({ name: 'pagent-demo' });
const keys = createKeyStore({ name: 'pagent-demo-keys' });

const state = {
  source: 'wire' as Source,
  lang: 'en' as DemoLang,
  theme: 'auto' as Theme,
  /** The status line, as a function of the strings, so a language change rewrites it. */
  status: (s: DemoStrings): string => fill(s.statusWire, { src: '/demo/api/chat' }),
};

/** One agent per agent source, kept while the page lives. */
const agents: { local?: Agent; own?: Agent; 'remote-ai-sdk'?: RemoteAgent; 'remote-ag-ui'?: RemoteAgent } = {};
/** The own endpoint's key, kept for the page's lifetime (never written anywhere unless "remember" is ticked). */
let ownKey = '';
let ownLabel = (s: DemoStrings): string => s.statusOwnEmpty;

const LAST_SESSION = (source: Source): string => `pagent-demo:last-session:${source}`;
const ENDPOINT = 'pagent-demo:endpoint';

function newSessionId(): string {
  return `demo-${crypto.randomUUID?.() ?? Date.now().toString(36)}`;
}

/** The in-browser agents' workspace (OPFS): the file tools write here and the files panel shows it. */
let workspace: Workspace | undefined;
const workspaceReady = createWorkspace({ name: 'pagent-demo' }).then(
  (ws) => (workspace = ws),
  () => undefined, // no OPFS here: the agents work without file tools
);

function makeAgent(source: 'local' | 'own', llm: LLM, sessionId?: string): Agent {
  const id = sessionId ?? localStorage.getItem(LAST_SESSION(source)) ?? newSessionId();
  const tools: Tool<never>[] = [...demoTools, ...(workspace ? workspaceTools(workspace) : [])];
  return new Agent({ llm, session: new Session(DEMO_SYSTEM_PROMPT), tools, store, sessionId: id });
}

function setStatus(text: (s: DemoStrings) => string): void {
  state.status = text;
  showStatus();
}

function showStatus(): void {
  status.value = state.status(demoStrings(state.lang));
  status.title = status.value; // the whole line, where a narrow screen cuts it
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
  const src = chat.src;
  setStatus((s) => fill(s.statusWire, { src }));
}

function useAgent(agent: Agent | RemoteAgent, label: (s: DemoStrings) => string): void {
  if (chat.agent !== agent) detach();
  chat.store = store;
  // the element shows the agent's stored conversation and its list switches the agent's session
  chat.agent = agent;
  chat.workspace = agent instanceof Agent ? workspace : undefined;
  setStatus(label);
}

/** A RemoteAgent for one of the local stateless back ends; the page offers them its `region` tool. */
function useRemote(source: RemoteSource): void {
  const url = source === 'remote-ai-sdk' ? '/demo/api/ai-sdk' : '/demo/api/ag-ui';
  const agent = (agents[source] ??= new RemoteAgent({
    url: new URL(url, location.href),
    protocol: source === 'remote-ai-sdk' ? 'ai-sdk' : 'ag-ui',
    tools: [region],
    store,
    sessionId: localStorage.getItem(LAST_SESSION(source)) ?? newSessionId(),
  }));
  const label =
    source === 'remote-ai-sdk'
      ? (s: DemoStrings): string => fill(s.statusRemoteAiSdk, { url })
      : (s: DemoStrings): string => fill(s.statusRemoteAgUi, { url, state: JSON.stringify(agent.state ?? {}) });
  useAgent(agent, label);
}

function useLocalAgent(): void {
  agents.local ??= makeAgent('local', new LLM('scripted', { baseURL: new URL('/demo/v1', location.href).href }));
  useAgent(agents.local, (s) => s.statusLocal);
}

/** The base URL typed, if it is an http(s) URL; otherwise the status says what is wrong. */
function checkedBaseURL(raw: string): string | undefined {
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    setStatus((s) => fill(s.badScheme, { url: raw }));
    return undefined;
  }
  return raw;
}

async function useOwnEndpoint(): Promise<void> {
  const raw = field('baseURL').value.trim();
  const model = field('model').value.trim();
  if (!raw || !model) {
    setStatus((s) => s.needBaseAndModel);
    return;
  }
  const baseURL = checkedBaseURL(raw);
  if (!baseURL) return;
  const api = selectedApi();
  localStorage.setItem(ENDPOINT, JSON.stringify({ baseURL, model, api }));
  const typed = field('apiKey').value;
  if (typed) ownKey = typed;
  else ownKey ||= (await keys.recall(baseURL)) ?? '';
  if (field('remember').checked && ownKey) await keys.remember(baseURL, ownKey);
  let llm: LLM;
  try {
    llm = new LLM(model, { baseURL, api, apiKey: ownKey || undefined });
  } catch (err) {
    const message = err instanceof PagentError ? err.message : String(err);
    setStatus(() => message);
    return;
  }
  // a new endpoint, model or key needs a new LLM; the agent built on it continues the same conversation
  agents.own = makeAgent('own', llm, agents.own?.sessionId);
  const reused = !typed && ownKey !== '';
  ownLabel = (s) => fill(s.statusOwn, { url: baseURL, model }) + (reused ? ` — ${s.keyKept}` : '');
  useAgent(agents.own, ownLabel);
}

function applySource(source: Source): void {
  state.source = source;
  endpointForm.hidden = source !== 'own';
  if (source === 'wire' || source === 'wire-ag-ui' || source === 'wire-ai-sdk') useWire(source);
  else if (source === 'local') useLocalAgent();
  else if (source === 'remote-ai-sdk' || source === 'remote-ag-ui') useRemote(source);
  else if (agents.own) useAgent(agents.own, ownLabel);
  else {
    detach();
    setStatus((s) => s.statusOwnEmpty);
  }
  syncURL();
}

/** Every label of the page and the suggestion chips, in the chosen language. */
function applyLanguage(lang: DemoLang): void {
  state.lang = lang;
  const s = demoStrings(lang);
  document.documentElement.lang = lang;
  document.title = s.title;
  for (const el of document.querySelectorAll<HTMLElement>('[data-text]')) {
    const key = el.dataset['text'] as keyof DemoStrings;
    const value = s[key];
    if (typeof value === 'string') el.textContent = value;
  }
  chat.lang = lang;
  for (const chip of chat.querySelectorAll('[slot="suggestions"]')) chip.remove();
  for (const { label, text } of s.chips) {
    const chip = document.createElement('button');
    chip.type = 'button';
    chip.slot = 'suggestions';
    chip.dataset['text'] = text;
    chip.textContent = label;
    chat.append(chip);
  }
  showStatus();
  syncURL();
}

/** The page follows the element's theme: `auto` follows the system. */
function applyTheme(theme: Theme): void {
  state.theme = theme;
  chat.theme = theme;
  if (theme === 'auto') delete document.documentElement.dataset['theme'];
  else document.documentElement.dataset['theme'] = theme;
  syncURL();
}

/** Keeps ?source, ?lang and ?theme in the address, so a reload or a shared link shows the same page. */
function syncURL(): void {
  const url = new URL(location.href);
  url.searchParams.set('source', state.source);
  url.searchParams.set('lang', state.lang);
  if (state.theme === 'auto') url.searchParams.delete('theme');
  else url.searchParams.set('theme', state.theme);
  if (url.href !== location.href) history.replaceState(null, '', url);
}

sourceSelect.addEventListener('change', () => applySource(sourceSelect.value as Source));
langSelect.addEventListener('change', () => applyLanguage(langSelect.value as DemoLang));
themeSelect.addEventListener('change', () => applyTheme(themeSelect.value as Theme));
apiSelect.addEventListener('change', showApiHints);
endpointForm.addEventListener('submit', (e) => {
  e.preventDefault();
  void useOwnEndpoint();
});
document.querySelector('#forget')!.addEventListener('click', () => {
  void keys.forgetAll().then(() => setStatus((s) => s.keysForgotten));
});
// the conversation an agent source shows is the one a reload reopens (also one whose first answer a
// reload cuts: it reopens with that answer, and Continue)
const rememberSession = (): void => {
  const agent = chat.agent as Agent | RemoteAgent | undefined;
  const source = state.source;
  if (agent?.sessionId && source !== 'wire' && source !== 'wire-ag-ui' && source !== 'wire-ai-sdk') localStorage.setItem(LAST_SESSION(source), agent.sessionId);
};
chat.addEventListener('pagent-send', rememberSession);
chat.addEventListener('pagent-run-end', () => {
  rememberSession();
  // the AG-UI agent's shared state is in the status line
  if (state.source === 'remote-ag-ui') showStatus();
});

const params = new URLSearchParams(location.search);
const initialSource = SOURCES.find((x) => x === params.get('source')) ?? 'wire';
const initialTheme = (['auto', 'light', 'dark'] as const).find((x) => x === params.get('theme')) ?? 'auto';
const saved = JSON.parse(localStorage.getItem(ENDPOINT) ?? 'null') as { baseURL?: string; model?: string; api?: string } | null;
if (saved) {
  field('baseURL').value = saved.baseURL ?? '';
  field('model').value = saved.model ?? '';
  if (saved.api && Object.hasOwn(API_BASE_URLS, saved.api)) apiSelect.value = saved.api;
}
showApiHints();
sourceSelect.value = initialSource;
langSelect.value = demoLang(params.get('lang') ?? navigator.language);
themeSelect.value = initialTheme;
applyLanguage(langSelect.value as DemoLang);
applyTheme(initialTheme);
void workspaceReady.then(() => {
  applySource(initialSource);
  document.body.dataset['ready'] = 'true';
});
