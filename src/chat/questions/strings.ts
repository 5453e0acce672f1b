/**
 * The sentences of the agent's questions in English, Simplified Chinese and Japanese. They ride in the
 * question chunk, not the element's bundle; each can be overridden through the element's `strings` like
 * any other string.
 */
import type { LocaleName, PagentChatStrings } from '../i18n.js';

/** The question strings (all optional in `PagentChatStrings`: these are their defaults). */
export type QuestionStrings = Required<Pick<PagentChatStrings,
  'question' | 'questionAsked' | 'questionAnswered' | 'questionDismissed' | 'questionCancelled' | 'questionSubmit' |
  'questionDismiss' | 'questionAnswer' | 'questionJson' | 'questionJsonInvalid' | 'questionYes' | 'questionNo'>>;

const defaults: Record<LocaleName, QuestionStrings> = {
  en: {
    question: 'Question',
    questionAsked: 'Waiting for your answer',
    questionAnswered: 'Answered',
    questionDismissed: 'Dismissed',
    questionCancelled: 'Not answered',
    questionSubmit: 'Submit',
    questionDismiss: 'Dismiss',
    questionAnswer: 'Your answer',
    questionJson: 'Your answer (JSON)',
    questionJsonInvalid: 'This is not valid JSON.',
    questionYes: 'Yes',
    questionNo: 'No',
  },
  'zh-CN': {
    question: '问题',
    questionAsked: '等待你的回答',
    questionAnswered: '已回答',
    questionDismissed: '已跳过',
    questionCancelled: '未回答',
    questionSubmit: '提交',
    questionDismiss: '跳过',
    questionAnswer: '你的回答',
    questionJson: '你的回答（JSON）',
    questionJsonInvalid: '这不是有效的 JSON。',
    questionYes: '是',
    questionNo: '否',
  },
  ja: {
    question: '質問',
    questionAsked: '回答待ち',
    questionAnswered: '回答済み',
    questionDismissed: 'スキップ済み',
    questionCancelled: '未回答',
    questionSubmit: '送信',
    questionDismiss: 'スキップ',
    questionAnswer: '回答',
    questionJson: '回答（JSON）',
    questionJsonInvalid: '有効な JSON ではありません。',
    questionYes: 'はい',
    questionNo: 'いいえ',
  },
};

/** The question strings for a locale, with the element's overrides on top. */
export function questionStrings(locale: string, strings: PagentChatStrings): QuestionStrings {
  const base = defaults[locale as LocaleName] ?? defaults.en;
  const out = { ...base };
  for (const key of Object.keys(base) as Array<keyof QuestionStrings>) {
    const own = strings[key];
    if (typeof own === 'string') out[key] = own;
  }
  return out;
}
