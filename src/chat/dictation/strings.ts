/** Dictation's button names, states and errors in English, Simplified Chinese and Japanese (overridable through `strings`). */
import type { LocaleName } from '../i18n.js';

type Key =
  | 'dictate' | 'stopDictation' | 'dictationListening' | 'dictationTranscribing'
  | 'dictationDenied' | 'dictationNoSpeech' | 'dictationNoMicrophone' | 'dictationFailed';

export const dictationDefaults: Record<LocaleName, Record<Key, string>> = {
  en: {
    dictate: 'Dictate',
    stopDictation: 'Stop dictation',
    dictationListening: 'Listening…',
    dictationTranscribing: 'Transcribing…',
    dictationDenied: 'Microphone access was refused. Allow it in the browser to dictate.',
    dictationNoSpeech: 'No speech was heard. Try again.',
    dictationNoMicrophone: 'No microphone was found.',
    dictationFailed: 'Dictation failed. Try again or type your message.',
  },
  'zh-CN': {
    dictate: '语音输入',
    stopDictation: '停止语音输入',
    dictationListening: '正在听…',
    dictationTranscribing: '正在转写…',
    dictationDenied: '麦克风权限被拒绝。请在浏览器中允许后再语音输入。',
    dictationNoSpeech: '没有听到语音。请再试一次。',
    dictationNoMicrophone: '没有找到麦克风。',
    dictationFailed: '语音输入失败。请重试或直接输入。',
  },
  ja: {
    dictate: '音声入力',
    stopDictation: '音声入力を停止',
    dictationListening: '聞き取り中…',
    dictationTranscribing: '文字起こし中…',
    dictationDenied: 'マイクへのアクセスが拒否されました。ブラウザで許可すると音声入力できます。',
    dictationNoSpeech: '音声が聞き取れませんでした。もう一度お試しください。',
    dictationNoMicrophone: 'マイクが見つかりません。',
    dictationFailed: '音声入力に失敗しました。もう一度試すか、入力してください。',
  },
};
