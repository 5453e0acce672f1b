// The demo page's own words (the element has its own, in src/chat/i18n.ts), in the element's three languages.

export type DemoLang = 'en' | 'zh-CN' | 'ja';

/** A suggestion chip: what it says, and the message it sends. */
export interface Chip {
  label: string;
  text: string;
}

export interface DemoStrings {
  title: string;
  source: string;
  sourceWire: string;
  sourceWireAgUi: string;
  sourceWireAiSdk: string;
  sourceLocal: string;
  sourceOwn: string;
  sourceRemoteAiSdk: string;
  sourceRemoteAgUi: string;
  language: string;
  theme: string;
  themeAuto: string;
  themeLight: string;
  themeDark: string;
  api: string;
  apiChat: string;
  apiResponses: string;
  apiAnthropic: string;
  baseURL: string;
  model: string;
  apiKey: string;
  remember: string;
  useEndpoint: string;
  forget: string;
  keyNote: string;
  /** `{src}`: the wire server's URL. */
  statusWire: string;
  statusLocal: string;
  /** `{url}` */
  statusRemoteAiSdk: string;
  /** `{url}`, `{state}`: the shared state, as JSON */
  statusRemoteAgUi: string;
  /** `{url}`, `{model}` */
  statusOwn: string;

  statusOwnEmpty: string;
  needBaseAndModel: string;
  /** `{url}` */
  badScheme: string;
  keysForgotten: string;
  keyKept: string;
  chips: Chip[];
}

const en: DemoStrings = {
  title: 'pagent-web demo',
  source: 'Source',
  sourceWire: 'Wire server (local)',
  sourceWireAgUi: 'Wire server, AG-UI (local)',
  sourceWireAiSdk: 'Wire server, AI SDK UI messages (local)',
  sourceLocal: 'In-browser agent (local model)',
  sourceOwn: 'In-browser agent (your endpoint)',
  sourceRemoteAiSdk: 'AI SDK route (local, RemoteAgent)',
  sourceRemoteAgUi: 'AG-UI agent (local, RemoteAgent)',
  language: 'Language',
  theme: 'Theme',
  themeAuto: 'Auto',
  themeLight: 'Light',
  themeDark: 'Dark',
  api: 'API',
  apiChat: 'Chat Completions (OpenAI-compatible)',
  apiResponses: 'OpenAI Responses',
  apiAnthropic: 'Anthropic Messages',
  baseURL: 'Base URL',
  model: 'Model',
  apiKey: 'API key',
  remember: 'Remember the key on this device',
  useEndpoint: 'Use this endpoint',
  forget: 'Forget remembered keys',
  keyNote:
    'The key stays in this page until you close it and is sent only to this base URL. It is stored only if you tick “remember” — then it sits in plain text in this site’s IndexedDB, readable by any script on this origin.',
  statusWire: 'Wire server {src}: an agent in Node with the local scripted model. No key, no network.',
  statusLocal: 'In-browser agent → local scripted model (/demo/v1); conversations in IndexedDB, files in the workspace.',
  statusRemoteAiSdk: 'AI SDK route {url} (streamText over the mock model), held by a RemoteAgent: history, approvals, the page’s region tool. No key, no network.',
  statusRemoteAgUi: 'AG-UI agent {url}, held by a RemoteAgent: history, approvals, a form (“book a table”), the page’s region tool. Shared state: {state}',
  statusOwn: 'In-browser agent → {url} ({model})',
  statusOwnEmpty: 'Fill in your endpoint, then “Use this endpoint”. The key is sent only to that base URL.',
  needBaseAndModel: 'Enter a base URL and a model.',
  badScheme: 'The base URL must start with http:// or https:// (got “{url}”).',
  keysForgotten: 'Remembered keys removed.',
  keyKept: 'Using the key entered earlier on this page.',
  chips: [
    { label: 'Weather in Tokyo', text: "What's the weather in Tokyo?" },
    { label: 'Show reasoning', text: 'Please think before you answer.' },
    { label: 'Tool that needs approval', text: 'Remind me to stretch in an hour.' },
    { label: 'Show an error', text: 'Please fail.' },
  ],
};

const zhCN: DemoStrings = {
  title: 'pagent-web 演示',
  source: '来源',
  sourceWire: 'Wire 服务器（本地）',
  sourceWireAgUi: 'Wire 服务器，AG-UI（本地）',
  sourceWireAiSdk: 'Wire 服务器，AI SDK UI 消息（本地）',
  sourceLocal: '浏览器内代理（本地模型）',
  sourceOwn: '浏览器内代理（你的端点）',
  sourceRemoteAiSdk: 'AI SDK 路由（本地，RemoteAgent）',
  sourceRemoteAgUi: 'AG-UI 代理（本地，RemoteAgent）',
  language: '语言',
  theme: '主题',
  themeAuto: '自动',
  themeLight: '浅色',
  themeDark: '深色',
  api: 'API',
  apiChat: 'Chat Completions（兼容 OpenAI）',
  apiResponses: 'OpenAI Responses',
  apiAnthropic: 'Anthropic Messages',
  baseURL: 'Base URL',
  model: '模型',
  apiKey: 'API 密钥',
  remember: '在此设备上记住密钥',
  useEndpoint: '使用此端点',
  forget: '忘记已记住的密钥',
  keyNote:
    '密钥只保留在本页面中，直到你关闭页面，并且只发送到这个 Base URL。只有勾选“记住”时才会保存——届时它以明文存放在本站点的 IndexedDB 中，本站点的任何脚本都能读取。',
  statusWire: 'Wire 服务器 {src}：Node 中的代理使用本地脚本模型。无需密钥，无需联网。',
  statusLocal: '浏览器内代理 → 本地脚本模型（/demo/v1）；对话保存在 IndexedDB 中，文件保存在工作区中。',
  statusRemoteAiSdk: 'AI SDK 路由 {url}（基于模拟模型的 streamText），由 RemoteAgent 维持对话：历史、审批、页面的 region 工具。无需密钥，无需联网。',
  statusRemoteAgUi: 'AG-UI 代理 {url}，由 RemoteAgent 维持对话：历史、审批、表单（“订一张桌子”）、页面的 region 工具。共享状态：{state}',
  statusOwn: '浏览器内代理 → {url}（{model}）',
  statusOwnEmpty: '填写你的端点，然后点击“使用此端点”。密钥只会发送到该 Base URL。',
  needBaseAndModel: '请输入 Base URL 和模型。',
  badScheme: 'Base URL 必须以 http:// 或 https:// 开头（当前为“{url}”）。',
  keysForgotten: '已删除记住的密钥。',
  keyKept: '使用本页面之前输入的密钥。',
  chips: [
    { label: '东京天气', text: '东京的天气怎么样？' },
    { label: '展示思考过程', text: '请先思考再回答。' },
    { label: '需要批准的工具', text: '一小时后提醒我起来活动一下。' },
    { label: '展示错误', text: '请故意失败一次。' },
  ],
};

const ja: DemoStrings = {
  title: 'pagent-web デモ',
  source: 'ソース',
  sourceWire: 'Wire サーバー（ローカル）',
  sourceWireAgUi: 'Wire サーバー、AG-UI（ローカル）',
  sourceWireAiSdk: 'Wire サーバー、AI SDK UI メッセージ（ローカル）',
  sourceLocal: 'ブラウザー内エージェント（ローカルモデル）',
  sourceOwn: 'ブラウザー内エージェント（自分のエンドポイント）',
  sourceRemoteAiSdk: 'AI SDK ルート（ローカル、RemoteAgent）',
  sourceRemoteAgUi: 'AG-UI エージェント（ローカル、RemoteAgent）',
  language: '言語',
  theme: 'テーマ',
  themeAuto: '自動',
  themeLight: 'ライト',
  themeDark: 'ダーク',
  api: 'API',
  apiChat: 'Chat Completions（OpenAI 互換）',
  apiResponses: 'OpenAI Responses',
  apiAnthropic: 'Anthropic Messages',
  baseURL: 'ベース URL',
  model: 'モデル',
  apiKey: 'API キー',
  remember: 'このデバイスにキーを記憶する',
  useEndpoint: 'このエンドポイントを使う',
  forget: '記憶したキーを消去',
  keyNote:
    'キーはこのページを閉じるまでページ内にだけ保持され、このベース URL にだけ送信されます。「記憶する」にチェックした場合のみ保存され、その場合はこのサイトの IndexedDB に平文で置かれ、このオリジンのどのスクリプトからも読めます。',
  statusWire: 'Wire サーバー {src}：Node 上のエージェントがローカルのスクリプトモデルを使います。キーもネットワークも不要です。',
  statusLocal: 'ブラウザー内エージェント → ローカルのスクリプトモデル（/demo/v1）。会話は IndexedDB、ファイルはワークスペースに保存されます。',
  statusRemoteAiSdk: 'AI SDK ルート {url}（モックモデルの streamText）を RemoteAgent が会話として扱います：履歴、承認、ページの region ツール。キーもネットワークも不要です。',
  statusRemoteAgUi: 'AG-UI エージェント {url} を RemoteAgent が会話として扱います：履歴、承認、フォーム（「テーブルを予約」）、ページの region ツール。共有状態：{state}',
  statusOwn: 'ブラウザー内エージェント → {url}（{model}）',
  statusOwnEmpty: 'エンドポイントを入力して「このエンドポイントを使う」を押してください。キーはそのベース URL にだけ送信されます。',
  needBaseAndModel: 'ベース URL とモデルを入力してください。',
  badScheme: 'ベース URL は http:// か https:// で始めてください（入力：「{url}」）。',
  keysForgotten: '記憶したキーを消去しました。',
  keyKept: 'このページで先に入力したキーを使います。',
  chips: [
    { label: '東京の天気', text: '東京の天気は？' },
    { label: '推論を表示', text: '考えてから答えてください。' },
    { label: '承認が必要なツール', text: '1時間後にストレッチするようリマインドして。' },
    { label: 'エラーを表示', text: 'わざと失敗してください。' },
  ],
};

const ALL: Record<DemoLang, DemoStrings> = { en, 'zh-CN': zhCN, ja };

/** The demo language for a tag (`zh…` → zh-CN, `ja…` → ja, else en). */
export function demoLang(tag: string | null | undefined): DemoLang {
  const t = (tag ?? '').toLowerCase();
  if (t === 'zh' || t.startsWith('zh-')) return 'zh-CN';
  if (t === 'ja' || t.startsWith('ja-')) return 'ja';
  return 'en';
}

export function demoStrings(lang: DemoLang): DemoStrings {
  return ALL[lang];
}

export function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (all, name: string) => values[name] ?? all);
}
