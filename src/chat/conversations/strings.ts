/**
 * The search, export and import sentences in English, Simplified Chinese and Japanese. They ride in the
 * conversation tools chunk, not the element's bundle; each can be overridden through the element's
 * `strings` like any other string.
 */
import type { LocaleName, PagentChatStrings } from '../i18n.js';

/** The conversation tools' strings (all optional in `PagentChatStrings`: these are their defaults). */
export type ConversationStrings = Required<Pick<PagentChatStrings,
  'searchConversations' | 'searchFoundOne' | 'searchFound' | 'searchNone' | 'searching' | 'exportConversation' | 'exportAs' |
  'exportMarkdown' | 'exportJson' | 'importConversation' | 'importNotJson' | 'importWrongFormat' | 'importWrongVersion' |
  'importInvalid' | 'importTooLarge' | 'importFailed' | 'imported' | 'dropImport'>>;

const defaults: Record<LocaleName, ConversationStrings> = {
  en: {
    searchConversations: 'Search conversations',
    searchFoundOne: '1 conversation found',
    searchFound: '{count} conversations found',
    searchNone: 'No conversations found',
    searching: 'Searching…',
    exportConversation: 'Export “{title}”',
    exportAs: 'Export as',
    exportMarkdown: 'Markdown',
    exportJson: 'JSON',
    importConversation: 'Import a conversation',
    importNotJson: '“{name}” is not a JSON file.',
    importWrongFormat: '“{name}” is not an exported conversation.',
    importWrongVersion: '“{name}” comes from a newer version and cannot be read here.',
    importInvalid: '“{name}” is damaged and was not imported.',
    importTooLarge: '“{name}” is {size}: files to import can be at most {max}.',
    importFailed: '“{name}” could not be saved in this browser.',
    imported: 'Imported “{title}”',
    dropImport: 'Drop an exported conversation (.json) to import it',
  },
  'zh-CN': {
    searchConversations: '搜索对话',
    searchFoundOne: '找到 1 个对话',
    searchFound: '找到 {count} 个对话',
    searchNone: '没有找到对话',
    searching: '正在搜索…',
    exportConversation: '导出“{title}”',
    exportAs: '导出为',
    exportMarkdown: 'Markdown',
    exportJson: 'JSON',
    importConversation: '导入对话',
    importNotJson: '“{name}”不是 JSON 文件。',
    importWrongFormat: '“{name}”不是导出的对话。',
    importWrongVersion: '“{name}”来自更新的版本，无法在此读取。',
    importInvalid: '“{name}”已损坏，未导入。',
    importTooLarge: '“{name}”大小为 {size}：导入的文件最多 {max}。',
    importFailed: '无法在此浏览器中保存“{name}”。',
    imported: '已导入“{title}”',
    dropImport: '拖放导出的对话（.json）以导入',
  },
  ja: {
    searchConversations: '会話を検索',
    searchFoundOne: '1 件の会話が見つかりました',
    searchFound: '{count} 件の会話が見つかりました',
    searchNone: '会話が見つかりません',
    searching: '検索中…',
    exportConversation: '「{title}」をエクスポート',
    exportAs: 'エクスポート形式',
    exportMarkdown: 'Markdown',
    exportJson: 'JSON',
    importConversation: '会話をインポート',
    importNotJson: '「{name}」は JSON ファイルではありません。',
    importWrongFormat: '「{name}」はエクスポートされた会話ではありません。',
    importWrongVersion: '「{name}」は新しいバージョンのもので、ここでは読み込めません。',
    importInvalid: '「{name}」は壊れているため、インポートしませんでした。',
    importTooLarge: '「{name}」は {size} です。インポートできるファイルは {max} までです。',
    importFailed: '「{name}」をこのブラウザーに保存できませんでした。',
    imported: '「{title}」をインポートしました',
    dropImport: 'エクスポートした会話（.json）をドロップしてインポート',
  },
};

/** Fills `{name}` placeholders (as `format` in `../i18n.ts`, kept here so this chunk imports nothing of the element's). */
export function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (all, name: string) => (Object.prototype.hasOwnProperty.call(values, name) ? values[name]! : all));
}

/** The conversation tools' strings for a locale, with the element's overrides on top. */
export function conversationStrings(locale: LocaleName, strings: PagentChatStrings): ConversationStrings {
  const base = defaults[locale];
  const out = { ...base };
  for (const key of Object.keys(base) as Array<keyof ConversationStrings>) {
    const override = strings[key];
    if (typeof override === 'string') out[key] = override;
  }
  return out;
}

/** Transcript headings in the reader's language, for the Markdown export. */
export function markdownLabels(locale: LocaleName, strings: PagentChatStrings) {
  const file = { en: 'Attached file: {name}', 'zh-CN': '附件：{name}', ja: '添付ファイル：{name}' }[locale];
  return {
    user: strings.you,
    assistant: strings.assistant,
    toolCall: `${strings.tool}: {name}`,
    toolResult: `${strings.result}: {name}`,
    reasoning: strings.reasoning,
    file,
    image: strings.image ?? { en: 'image', 'zh-CN': '图片', ja: '画像' }[locale],
  };
}
