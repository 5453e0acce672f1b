/**
 * The element's strings in English, Simplified Chinese and Japanese. The locale comes from the
 * element's `lang` (or the nearest ancestor's); every string can be overridden through `strings`.
 * Placeholders are written `{name}` and filled by {@link format}.
 */

/** Every user-visible string of `<pagent-chat>`. */
export interface PagentChatStrings {
  timelineLabel: string;
  composerLabel: string;
  placeholder: string;
  send: string;
  stop: string;
  newConversation: string;
  you: string;
  assistant: string;
  reasoning: string;
  thinking: string;
  tool: string;
  arguments: string;
  result: string;
  toolPending: string;
  toolAwaitingApproval: string;
  toolOk: string;
  toolFailed: string;
  toolDenied: string;
  toolCancelled: string;
  approve: string;
  deny: string;
  /** `{ms}`: milliseconds, `{s}`: seconds with one decimal. */
  durationMs: string;
  durationS: string;
  truncated: string;
  turn: string;
  usage: string;
  stopped: string;
  errorTitle: string;
  retry: string;
  answerFinished: string;
  runStopped: string;
  runFailed: string;
  jumpToLatest: string;
  wireLog: string;
  wireLogEmpty: string;
  decodeError: string;
  conversations: string;
  conversationsEmpty: string;
  untitled: string;
  open: string;
  rename: string;
  renamePrompt: string;
  delete: string;
  /** `{title}`: the conversation's title; the accessible name of its rename button. */
  renameConversation: string;
  /** `{title}`: the conversation's title; the accessible name of its delete button. */
  deleteConversation: string;
  /** `{title}`: the question asked in the row before a conversation is deleted. */
  confirmDelete: string;
  cancel: string;
  suggestions: string;
  /** The empty state's invitation, shown until the first message. */
  emptyInvitation: string;
  copyCode: string;
  /** The accessible name of a task list item's checkbox in an answer. */
  taskItem: string;
  /** The composer button that sends a message into the run in flight (`Agent.steer`). */
  sendNow: string;
  /** The files panel's heading (with a `workspace`). */
  files: string;
  filesEmpty: string;
  /** `{name}`: the file's path. */
  downloadFile: string;
  /** `{name}`: the file's path. */
  deleteFile: string;
  /** The technical detail of a send with no source (shown under the error card's disclosure). */
  noSourceDetail: string;
  /** The summary of an error card's disclosure (code, status and the full message). */
  errorDetails: string;
  /** Error card sentences, one per failure kind (`{status}`: the HTTP status). */
  errorUnreachable: string;
  errorCors: string;
  errorAuth: string;
  errorNotFound: string;
  errorRateLimit: string;
  errorServer: string;
  errorHttp: string;
  errorCut: string;
  errorTimeout: string;
  errorProvider: string;
  errorDecode: string;
  errorRedirect: string;
  errorConfig: string;
  errorStore: string;
  errorStoreBlocked: string;
  errorNoSource: string;
}

const en: PagentChatStrings = {
  timelineLabel: 'Conversation',
  composerLabel: 'Message',
  placeholder: 'Send a message…',
  send: 'Send',
  stop: 'Stop',
  newConversation: 'New conversation',
  you: 'You',
  assistant: 'Assistant',
  reasoning: 'Reasoning',
  thinking: 'Thinking…',
  tool: 'Tool',
  arguments: 'Arguments',
  result: 'Result',
  toolPending: 'Running…',
  toolAwaitingApproval: 'Waiting for approval',
  toolOk: 'Done',
  toolFailed: 'Failed',
  toolDenied: 'Denied',
  toolCancelled: 'Not finished',
  approve: 'Approve',
  deny: 'Deny',
  durationMs: '{ms} ms',
  durationS: '{s} s',
  truncated: 'truncated',
  turn: 'Turn {n}',
  usage: '{input} in · {output} out · {total} tokens',
  stopped: 'Stopped',
  errorTitle: 'Something went wrong',
  retry: 'Retry',
  answerFinished: 'Answer finished',
  runStopped: 'Stopped',
  runFailed: 'The run failed',
  jumpToLatest: 'Jump to latest',
  wireLog: 'Wire log',
  wireLogEmpty: 'No lines yet',
  decodeError: 'decode error',
  conversations: 'Conversations',
  conversationsEmpty: 'No saved conversations',
  untitled: 'Untitled',
  open: 'Open',
  rename: 'Rename',
  renamePrompt: 'New title',
  delete: 'Delete',
  renameConversation: 'Rename “{title}”',
  deleteConversation: 'Delete “{title}”',
  confirmDelete: 'Delete “{title}”?',
  cancel: 'Cancel',
  suggestions: 'Suggestions',
  emptyInvitation: 'Ask anything — the answer streams in here.',
  copyCode: 'Copy code',
  taskItem: 'Task',
  sendNow: 'Send now',
  files: 'Files',
  filesEmpty: 'No files yet',
  downloadFile: 'Download {name}',
  deleteFile: 'Delete {name}',
  noSourceDetail: 'No source: set the src, agent or client property, or handle pagent-send and call preventDefault().',
  errorDetails: 'Details',
  errorUnreachable: 'Could not reach the server. Check the address and that the server is running.',
  errorCors: 'The server refused requests from this page (CORS). It must allow this site’s origin.',
  errorAuth: 'The API key was not accepted. Check the key.',
  errorNotFound: 'Nothing was found at this address. Check the URL path and the model name.',
  errorRateLimit: 'Too many requests: the service is rate-limiting. Wait a moment, then retry.',
  errorServer: 'The server had a problem (HTTP {status}). Retry in a moment.',
  errorHttp: 'The server refused the request (HTTP {status}).',
  errorCut: 'The answer was cut off before it finished.',
  errorTimeout: 'The server took too long to answer.',
  errorProvider: 'The model reported an error.',
  errorDecode: 'The answer could not be read: the response was empty or not an agent stream.',
  errorRedirect: 'The server redirected the request elsewhere; it was not followed.',
  errorConfig: 'The connection settings are not valid.',
  errorStore: 'Conversations could not be read or saved in this browser.',
  errorStoreBlocked: 'Another tab of this site is holding the conversation database. Close or reload the other tabs of this site, then retry.',
  errorNoSource: 'There is nowhere to send this message: no source is set.',
};

const zhCN: PagentChatStrings = {
  timelineLabel: '对话',
  composerLabel: '消息',
  placeholder: '输入消息…',
  send: '发送',
  stop: '停止',
  newConversation: '新对话',
  you: '你',
  assistant: '助手',
  reasoning: '思考过程',
  thinking: '思考中…',
  tool: '工具',
  arguments: '参数',
  result: '结果',
  toolPending: '运行中…',
  toolAwaitingApproval: '等待批准',
  toolOk: '完成',
  toolFailed: '失败',
  toolDenied: '已拒绝',
  toolCancelled: '未完成',
  approve: '批准',
  deny: '拒绝',
  durationMs: '{ms} 毫秒',
  durationS: '{s} 秒',
  truncated: '已截断',
  turn: '第 {n} 轮',
  usage: '输入 {input} · 输出 {output} · 共 {total} 个词元',
  stopped: '已停止',
  errorTitle: '出错了',
  retry: '重试',
  answerFinished: '回答完成',
  runStopped: '已停止',
  runFailed: '运行失败',
  jumpToLatest: '跳到最新',
  wireLog: '原始日志',
  wireLogEmpty: '暂无内容',
  decodeError: '解码错误',
  conversations: '历史对话',
  conversationsEmpty: '没有保存的对话',
  untitled: '未命名',
  open: '打开',
  rename: '重命名',
  renamePrompt: '新标题',
  delete: '删除',
  renameConversation: '重命名“{title}”',
  deleteConversation: '删除“{title}”',
  confirmDelete: '删除“{title}”？',
  cancel: '取消',
  suggestions: '建议',
  emptyInvitation: '想问什么都可以——回答会在这里实时显示。',
  copyCode: '复制代码',
  taskItem: '任务',
  sendNow: '立即发送',
  files: '文件',
  filesEmpty: '暂无文件',
  downloadFile: '下载 {name}',
  deleteFile: '删除 {name}',
  noSourceDetail: 'No source: set the src, agent or client property, or handle pagent-send and call preventDefault().',
  errorDetails: '详细信息',
  errorUnreachable: '无法连接到服务器。请检查地址，并确认服务器正在运行。',
  errorCors: '服务器拒绝了来自此页面的请求（CORS），需要允许本站点的来源。',
  errorAuth: 'API 密钥未被接受，请检查密钥。',
  errorNotFound: '此地址下没有找到内容。请检查 URL 路径和模型名称。',
  errorRateLimit: '请求过多，服务正在限流。请稍候再重试。',
  errorServer: '服务器出现问题（HTTP {status}），请稍后重试。',
  errorHttp: '服务器拒绝了请求（HTTP {status}）。',
  errorCut: '回答在完成前被中断了。',
  errorTimeout: '服务器响应超时。',
  errorProvider: '模型返回了错误。',
  errorDecode: '无法读取回答：响应为空，或不是代理事件流。',
  errorRedirect: '服务器把请求重定向到了别处，未予跟随。',
  errorConfig: '连接设置无效。',
  errorStore: '无法在此浏览器中读取或保存对话。',
  errorStoreBlocked: '本网站的另一个标签页正占用对话数据库。请关闭或刷新本网站的其他标签页，然后重试。',
  errorNoSource: '此消息无处可发：未设置消息来源。',
};

const ja: PagentChatStrings = {
  timelineLabel: '会話',
  composerLabel: 'メッセージ',
  placeholder: 'メッセージを入力…',
  send: '送信',
  stop: '停止',
  newConversation: '新しい会話',
  you: 'あなた',
  assistant: 'アシスタント',
  reasoning: '推論',
  thinking: '考え中…',
  tool: 'ツール',
  arguments: '引数',
  result: '結果',
  toolPending: '実行中…',
  toolAwaitingApproval: '承認待ち',
  toolOk: '完了',
  toolFailed: '失敗',
  toolDenied: '拒否済み',
  toolCancelled: '未完了',
  approve: '承認',
  deny: '拒否',
  durationMs: '{ms} ミリ秒',
  durationS: '{s} 秒',
  truncated: '切り詰め',
  turn: 'ターン {n}',
  usage: '入力 {input} · 出力 {output} · 合計 {total} トークン',
  stopped: '停止しました',
  errorTitle: 'エラーが発生しました',
  retry: '再試行',
  answerFinished: '回答が完了しました',
  runStopped: '停止しました',
  runFailed: '実行に失敗しました',
  jumpToLatest: '最新へ移動',
  wireLog: 'ワイヤーログ',
  wireLogEmpty: 'まだ行がありません',
  decodeError: 'デコードエラー',
  conversations: '会話の履歴',
  conversationsEmpty: '保存された会話はありません',
  untitled: '無題',
  open: '開く',
  rename: '名前を変更',
  renamePrompt: '新しいタイトル',
  delete: '削除',
  renameConversation: '「{title}」の名前を変更',
  deleteConversation: '「{title}」を削除',
  confirmDelete: '「{title}」を削除しますか？',
  cancel: 'キャンセル',
  suggestions: '候補',
  emptyInvitation: '何でも聞いてください。回答はここに表示されます。',
  copyCode: 'コードをコピー',
  taskItem: 'タスク',
  sendNow: '今すぐ送信',
  files: 'ファイル',
  filesEmpty: 'ファイルはまだありません',
  downloadFile: '{name} をダウンロード',
  deleteFile: '{name} を削除',
  noSourceDetail: 'No source: set the src, agent or client property, or handle pagent-send and call preventDefault().',
  errorDetails: '詳細',
  errorUnreachable: 'サーバーに接続できませんでした。アドレスと、サーバーが起動しているかを確認してください。',
  errorCors: 'サーバーがこのページからのリクエストを拒否しました（CORS）。このサイトのオリジンを許可する必要があります。',
  errorAuth: 'API キーが受け付けられませんでした。キーを確認してください。',
  errorNotFound: 'このアドレスには何も見つかりませんでした。URL のパスとモデル名を確認してください。',
  errorRateLimit: 'リクエストが多すぎます（レート制限中）。少し待ってから再試行してください。',
  errorServer: 'サーバーで問題が発生しました（HTTP {status}）。しばらくしてから再試行してください。',
  errorHttp: 'サーバーがリクエストを拒否しました（HTTP {status}）。',
  errorCut: '回答が完了する前に途切れました。',
  errorTimeout: 'サーバーの応答に時間がかかりすぎました。',
  errorProvider: 'モデルがエラーを返しました。',
  errorDecode: '回答を読み取れませんでした。応答が空か、エージェントのストリームではありません。',
  errorRedirect: 'サーバーがリクエストを別の場所へリダイレクトしたため、従いませんでした。',
  errorConfig: '接続設定が正しくありません。',
  errorStore: 'このブラウザーで会話を読み込めないか、保存できませんでした。',
  errorStoreBlocked: 'このサイトの別のタブが会話データベースを使用中です。このサイトの他のタブを閉じるか再読み込みしてから、再試行してください。',
  errorNoSource: 'このメッセージの送信先がありません（ソースが設定されていません）。',
};

/** The built-in locales. */
export const LOCALES: Readonly<Record<'en' | 'zh-CN' | 'ja', PagentChatStrings>> = { en, 'zh-CN': zhCN, ja };

/** A built-in locale name. */
export type LocaleName = keyof typeof LOCALES;

/**
 * Picks the built-in locale for a BCP 47 tag: `zh`, `zh-CN`, `zh-Hans…` → zh-CN; `ja`, `ja-JP` → ja;
 * anything else (or nothing) → en.
 */
export function resolveLocale(lang: string | null | undefined): LocaleName {
  const tag = (lang ?? '').toLowerCase();
  if (tag === 'zh' || tag.startsWith('zh-')) return 'zh-CN';
  if (tag === 'ja' || tag.startsWith('ja-')) return 'ja';
  return 'en';
}

/** The strings for `lang`, with `overrides` on top. */
export function stringsFor(lang: string | null | undefined, overrides?: Partial<PagentChatStrings>): PagentChatStrings {
  const base = LOCALES[resolveLocale(lang)];
  return overrides ? { ...base, ...overrides } : base;
}

/** Fills `{name}` placeholders; unknown names stay as written. */
export function format(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (all, name: string) =>
    Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : all,
  );
}
