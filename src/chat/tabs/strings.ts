/**
 * The notes of a conversation run in another tab, in English, Simplified Chinese and Japanese. They ride
 * in the tabs chunk, not the element's bundle; each can be overridden through the element's `strings`.
 */
import type { LocaleName, PagentChatStrings } from '../i18n.js';

/** The tabs' strings (all optional in `PagentChatStrings`: these are their defaults). */
export type TabsStrings = Required<Pick<PagentChatStrings, 'answeringElsewhere' | 'waitingForOtherTab' | 'sendWhenFinished'>>;

const defaults: Record<LocaleName, TabsStrings> = {
  en: {
    answeringElsewhere: 'Answering in another tab…',
    waitingForOtherTab: 'Waiting for the answer in another tab to finish…',
    sendWhenFinished: 'This conversation is answering in another tab. Send your message once it has finished.',
  },
  'zh-CN': {
    answeringElsewhere: '正在另一个标签页中回答…',
    waitingForOtherTab: '正在等待另一个标签页中的回答完成…',
    sendWhenFinished: '这个对话正在另一个标签页中回答。请等它完成后再发送。',
  },
  ja: {
    answeringElsewhere: '別のタブで回答中…',
    waitingForOtherTab: '別のタブの回答が終わるのを待っています…',
    sendWhenFinished: 'この会話は別のタブで回答中です。終わってから送信してください。',
  },
};

/** The tabs' strings for a locale, with the element's overrides on top. */
export function tabsStrings(locale: LocaleName, strings: PagentChatStrings): TabsStrings {
  const out = { ...defaults[locale] };
  for (const key of Object.keys(out) as Array<keyof TabsStrings>) {
    const override = strings[key];
    if (typeof override === 'string') out[key] = override;
  }
  return out;
}
