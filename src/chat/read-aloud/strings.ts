/** The read-aloud button's names in English, Simplified Chinese and Japanese (overridable through `strings`). */
import type { LocaleName } from '../i18n.js';

export const readAloudDefaults: Record<LocaleName, Record<'readAloud' | 'stopReading', string>> = {
  en: { readAloud: 'Read aloud', stopReading: 'Stop reading' },
  'zh-CN': { readAloud: '朗读', stopReading: '停止朗读' },
  ja: { readAloud: '読み上げ', stopReading: '読み上げを停止' },
};
