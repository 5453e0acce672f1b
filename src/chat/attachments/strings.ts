/**
 * The attachment sentences in English, Simplified Chinese and Japanese. They ride in the attachment chunk,
 * not the element's bundle; each can be overridden through the element's `strings` like any other string.
 */
import type { LocaleName, PagentChatStrings } from '../i18n.js';
import { formatByteSize } from '../byte-size.js';

/** How a text-like file's part starts (the same literal as in `parts.ts`, which the element's bundle holds). */
export const FILE_OPEN = '<file name="';

/** Fills `{name}` placeholders (as `format` in `../i18n.ts`, kept here so this chunk imports nothing of the element's). */
export function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (all, name: string) => (Object.prototype.hasOwnProperty.call(values, name) ? values[name]! : all));
}

/** The attachment strings (all optional in `PagentChatStrings`: these are their defaults). */
export type AttachmentStrings = Required<Pick<PagentChatStrings,
  'attachmentTooLarge' | 'attachmentsTooLarge' | 'attachmentUnsupported' | 'attachmentUnreadable' | 'removeAttachment' |
  'viewImage' | 'closeViewer' | 'attachments' | 'image'>>;

const defaults: Record<LocaleName, AttachmentStrings> = {
  en: {
    attachmentTooLarge: '“{name}” is {size}: files can be at most {max}.',
    attachmentsTooLarge: '“{name}” was not added: a message can carry at most {max} of files.',
    attachmentUnsupported: '“{name}” is not a type of file this chat takes.',
    attachmentUnreadable: '“{name}” could not be read.',
    removeAttachment: 'Remove {name}',
    viewImage: 'View {name} larger',
    closeViewer: 'Close',
    attachments: 'Attachments',
    image: 'image',
  },
  'zh-CN': {
    attachmentTooLarge: '“{name}”大小为 {size}：单个文件最多 {max}。',
    attachmentsTooLarge: '未添加“{name}”：一条消息的文件总计最多 {max}。',
    attachmentUnsupported: '不支持“{name}”的文件类型。',
    attachmentUnreadable: '无法读取“{name}”。',
    removeAttachment: '移除 {name}',
    viewImage: '放大查看 {name}',
    closeViewer: '关闭',
    attachments: '附件',
    image: '图片',
  },
  ja: {
    attachmentTooLarge: '「{name}」は {size} です。ファイルは 1 つあたり {max} までです。',
    attachmentsTooLarge: '「{name}」を追加できませんでした。1 つのメッセージに添付できるのは合計 {max} までです。',
    attachmentUnsupported: '「{name}」はこのチャットで扱えない種類のファイルです。',
    attachmentUnreadable: '「{name}」を読み込めませんでした。',
    removeAttachment: '{name} を削除',
    viewImage: '{name} を拡大表示',
    closeViewer: '閉じる',
    attachments: '添付ファイル',
    image: '画像',
  },
};

/** The attachment strings for a locale, with the element's overrides on top. */
export function attachmentStrings(locale: string, strings: PagentChatStrings): AttachmentStrings {
  const base = defaults[locale as LocaleName] ?? defaults.en;
  const out = { ...base };
  for (const key of Object.keys(base) as Array<keyof AttachmentStrings>) {
    const own = strings[key];
    if (typeof own === 'string') out[key] = own;
  }
  return out;
}

/** A byte count for people (`512 B`, `4.9 KiB`, `20 MiB`): the one formatting of sizes, see `formatByteSize`. */
export const formatSize = formatByteSize;
