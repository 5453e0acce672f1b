/**
 * The sentences of an answer a reload cut, in English, Simplified Chinese and Japanese. They ride in the
 * interrupted turn's chunk, not the element's bundle; each can be overridden through the element's
 * `strings` like any other string.
 */
import type { LocaleName, PagentChatStrings } from '../i18n.js';

/** The interrupted turn's strings (all optional in `PagentChatStrings`: these are their defaults). */
export type InterruptedStrings = Required<Pick<PagentChatStrings, 'interrupted' | 'continueAnswer' | 'continueLabel'>>;

const defaults: Record<LocaleName, InterruptedStrings> = {
  en: {
    interrupted: 'Interrupted: the page closed before this answer finished.',
    continueAnswer: 'Continue',
    continueLabel: 'Continue the interrupted answer',
  },
  'zh-CN': {
    interrupted: '已中断：这个回答完成之前页面关闭了。',
    continueAnswer: '继续',
    continueLabel: '继续被中断的回答',
  },
  ja: {
    interrupted: '中断：この回答が終わる前にページが閉じられました。',
    continueAnswer: '続ける',
    continueLabel: '中断された回答を続ける',
  },
};

/** The interrupted turn's strings for a locale, with the element's overrides on top. */
export function interruptedStrings(locale: LocaleName, strings: PagentChatStrings): InterruptedStrings {
  const out = { ...defaults[locale] };
  for (const key of Object.keys(out) as Array<keyof InterruptedStrings>) {
    const override = strings[key];
    if (typeof override === 'string') out[key] = override;
  }
  return out;
}
