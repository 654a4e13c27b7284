/** The sandbox's hosted card page: plain HTML with inline CSS, no scripts, no external assets. */
import { errorList, esc, input, layout, messageBody, pageCss, testCardList } from '../shared/page';

export type PageLanguage = 'az' | 'en' | 'ru';

const TEXT = {
  en: {
    title: 'Card payment', badge: 'Sandbox — no real money', merchant: 'Merchant', description: 'Description',
    amount: 'Amount', number: 'Card number', expiry: 'Expiry (MM/YY)', cvc: 'CVC', name: 'Name on card',
    pay: 'Pay', cancel: 'Cancel and return', cards: 'Test cards', ok: 'succeeds', declined: 'is declined',
    delayed: 'succeeds after a delay', anyData: 'Any future expiry date, any 3-digit CVC and any name.',
    closed: 'This payment is already closed.', back: 'Return to the shop', notFound: 'Payment not found.',
    fix: 'Please correct the following:', badNumber: 'Enter a 16-digit card number.',
    badExpiry: 'Enter a future expiry date as MM/YY.', badCvc: 'Enter the 3 or 4 digits of the CVC.', badName: 'Enter the name on the card.',
  },
  az: {
    title: 'Kartla ödəniş', badge: 'Sınaq rejimi — real pul yoxdur', merchant: 'Satıcı', description: 'Təsvir',
    amount: 'Məbləğ', number: 'Kart nömrəsi', expiry: 'Bitmə tarixi (AA/İİ)', cvc: 'CVC', name: 'Kart sahibinin adı',
    pay: 'Ödə', cancel: 'Ləğv et və qayıt', cards: 'Sınaq kartları', ok: 'uğurlu olur', declined: 'rədd edilir',
    delayed: 'gecikmə ilə uğurlu olur', anyData: 'İstənilən gələcək tarix, istənilən 3 rəqəmli CVC və ad.',
    closed: 'Bu ödəniş artıq bağlanıb.', back: 'Mağazaya qayıt', notFound: 'Ödəniş tapılmadı.',
    fix: 'Zəhmət olmasa düzəldin:', badNumber: '16 rəqəmli kart nömrəsini daxil edin.',
    badExpiry: 'Gələcək tarixi AA/İİ şəklində daxil edin.', badCvc: 'CVC-nin 3 və ya 4 rəqəmini daxil edin.', badName: 'Kart sahibinin adını daxil edin.',
  },
  ru: {
    title: 'Оплата картой', badge: 'Тестовый режим — без реальных денег', merchant: 'Продавец', description: 'Описание',
    amount: 'Сумма', number: 'Номер карты', expiry: 'Срок действия (ММ/ГГ)', cvc: 'CVC', name: 'Имя на карте',
    pay: 'Оплатить', cancel: 'Отменить и вернуться', cards: 'Тестовые карты', ok: 'успешна', declined: 'отклоняется',
    delayed: 'успешна с задержкой', anyData: 'Любой будущий срок, любой трёхзначный CVC и любое имя.',
    closed: 'Этот платёж уже закрыт.', back: 'Вернуться в магазин', notFound: 'Платёж не найден.',
    fix: 'Исправьте, пожалуйста:', badNumber: 'Введите 16-значный номер карты.',
    badExpiry: 'Введите будущий срок в формате ММ/ГГ.', badCvc: 'Введите 3 или 4 цифры CVC.', badName: 'Введите имя на карте.',
  },
} as const;

export const TEST_CARDS = {
  success: '4242424242424242',
  declined: '4000000000000002',
  delayed: '4000000000003220',
} as const;

const CSS = pageCss({
  background: '#f3f4f6', ink: '#111827', muted: '#4b5563', border: '#6b7280', accent: '#1d4ed8', width: '28rem', buttonGap: '1.25rem',
});

export type FieldError = 'badNumber' | 'badExpiry' | 'badCvc' | 'badName';

const FIELD_OF: Record<FieldError, string> = { badNumber: 'number', badExpiry: 'expiry', badCvc: 'cvc', badName: 'name' };

export interface PayPageModel {
  lang: PageLanguage;
  transaction: string;
  merchant: string;
  description: string;
  amount: string;
  errors?: FieldError[];
  /** Values shown again after an error; never the card number or CVC. */
  values?: { expiry?: string; name?: string };
}

export function payPage(m: PayPageModel): string {
  const t = TEXT[m.lang];
  const v = m.values ?? {};
  const errors = errorList(t.fix, (m.errors ?? []).map((e) => t[e]));
  const invalid = new Set(m.errors?.map((e) => FIELD_OF[e]));
  const field = (id: string, label: string, attrs: string, value = '') => input(id, label, `required ${attrs}`, invalid.has(id), value);
  return layout(m.lang, CSS, `${t.title} — ${m.merchant}`, `
<span class="badge">${t.badge}</span><h1>${t.title}</h1>
<dl><dt>${t.merchant}</dt><dd>${esc(m.merchant)}</dd><dt>${t.description}</dt><dd>${esc(m.description)}</dd>
<dt>${t.amount}</dt><dd class="amount">${m.amount} AZN</dd></dl>${errors}
<form method="post" action="/pay/${esc(m.transaction)}" novalidate>
${field('number', t.number, 'inputmode="numeric" autocomplete="cc-number" maxlength="23"')}
<div class="row"><div>${field('expiry', t.expiry, 'inputmode="numeric" autocomplete="cc-exp" placeholder="MM/YY" maxlength="5"', v.expiry)}</div>
<div>${field('cvc', t.cvc, 'inputmode="numeric" autocomplete="cc-csc" maxlength="4"')}</div></div>
${field('name', t.name, 'autocomplete="cc-name" maxlength="100"', v.name)}
<button type="submit" name="action" value="pay">${t.pay} ${m.amount} AZN</button>
<button type="submit" name="action" value="cancel" class="secondary" formnovalidate>${t.cancel}</button>
</form>
<section class="tests" aria-labelledby="tests"><h2 id="tests" style="font-size:1rem">${t.cards}</h2>${testCardList([[TEST_CARDS.success, t.ok], [TEST_CARDS.declined, t.declined], [TEST_CARDS.delayed, t.delayed]])}<p>${t.anyData}</p></section>`);
}

export function messagePage(lang: PageLanguage, kind: 'closed' | 'notFound', backUrl?: string): string {
  const t = TEXT[lang];
  return layout(lang, CSS, t.title, messageBody(t, t[kind], backUrl));
}
