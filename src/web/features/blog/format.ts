import type { Language } from '../../../core/i18n';

/*
 * Month names written out, so the server (Node's full ICU) and the browser (which ships without
 * Azerbaijani locale data) render the same text and hydration matches.
 */
const MONTHS: Record<Language, string[]> = {
  az: ['yanvar', 'fevral', 'mart', 'aprel', 'may', 'iyun', 'iyul', 'avqust', 'sentyabr', 'oktyabr', 'noyabr', 'dekabr'],
  tr: ['Ocak', 'Şubat', 'Mart', 'Nisan', 'Mayıs', 'Haziran', 'Temmuz', 'Ağustos', 'Eylül', 'Ekim', 'Kasım', 'Aralık'],
  en: ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'],
};

/** A calendar day (YYYY-MM-DD) in the page's language: "22 noyabr 2026", "22 Kasım 2026", "November 22, 2026". */
export function formatDay(day: string, lang: Language): string {
  const [y, m, d] = day.split('-').map(Number);
  const month = MONTHS[lang][(m ?? 1) - 1] ?? '';
  return lang === 'en' ? `${month} ${d}, ${y}` : `${d} ${month} ${y}`;
}
