/** The feedback buttons' names and the 👎 comment form in English, Simplified Chinese and Japanese (overridable through `strings`). */
import type { LocaleName } from '../i18n.js';

type Key = 'feedback' | 'feedbackUp' | 'feedbackDown' | 'feedbackComment' | 'feedbackSend' | 'feedbackSkip' | 'feedbackThanks';

export const feedbackDefaults: Record<LocaleName, Record<Key, string>> = {
  en: {
    feedback: 'Feedback',
    feedbackUp: 'Good answer',
    feedbackDown: 'Bad answer',
    feedbackComment: 'What was wrong? (optional)',
    feedbackSend: 'Send feedback',
    feedbackSkip: 'Skip',
    feedbackThanks: 'Thanks for your feedback.',
  },
  'zh-CN': {
    feedback: '反馈',
    feedbackUp: '回答很好',
    feedbackDown: '回答不好',
    feedbackComment: '哪里不对？（可选）',
    feedbackSend: '发送反馈',
    feedbackSkip: '跳过',
    feedbackThanks: '感谢你的反馈。',
  },
  ja: {
    feedback: 'フィードバック',
    feedbackUp: '良い回答',
    feedbackDown: '良くない回答',
    feedbackComment: '何が問題でしたか？（任意）',
    feedbackSend: 'フィードバックを送信',
    feedbackSkip: 'スキップ',
    feedbackThanks: 'フィードバックありがとうございます。',
  },
};
