/** The context meter's name and figure in English, Simplified Chinese and Japanese (overridable through `strings`). */
import type { LocaleName } from '../i18n.js';

export const meterDefaults: Record<LocaleName, Record<'contextLabel' | 'contextUsed', string>> = {
  en: { contextLabel: 'Context used', contextUsed: '{used} of {max} tokens ({percent}%)' },
  'zh-CN': { contextLabel: '已用上下文', contextUsed: '{used} / {max} 个 token（{percent}%）' },
  ja: { contextLabel: '使用中のコンテキスト', contextUsed: '{used} / {max} トークン（{percent}%）' },
};
