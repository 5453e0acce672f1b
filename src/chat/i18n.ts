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
  suggestions: string;
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
  suggestions: 'Suggestions',
  copyCode: 'Copy code',
  taskItem: 'Task',
  sendNow: 'Send now',
  files: 'Files',
  filesEmpty: 'No files yet',
  downloadFile: 'Download {name}',
  deleteFile: 'Delete {name}',
  noSourceDetail: 'No source: set the src, agent or client property, or handle pagent-send and call preventDefault().',
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
  suggestions: '建议',
  copyCode: '复制代码',
  taskItem: '任务',
  sendNow: '立即发送',
  files: '文件',
  filesEmpty: '暂无文件',
  downloadFile: '下载 {name}',
  deleteFile: '删除 {name}',
  noSourceDetail: 'No source: set the src, agent or client property, or handle pagent-send and call preventDefault().',
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
  suggestions: '候補',
  copyCode: 'コードをコピー',
  taskItem: 'タスク',
  sendNow: '今すぐ送信',
  files: 'ファイル',
  filesEmpty: 'ファイルはまだありません',
  downloadFile: '{name} をダウンロード',
  deleteFile: '{name} を削除',
  noSourceDetail: 'No source: set the src, agent or client property, or handle pagent-send and call preventDefault().',
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
