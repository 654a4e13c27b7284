/** The PayTR sandbox's hosted payment page: plain HTML with inline CSS, no scripts, no external assets. */
import { errorList, esc, input, layout, messageBody, pageCss, testCardList } from '../shared/page';

export type PageLanguage = 'tr' | 'en';

const TEXT = {
  tr: {
    title: 'Güvenli ödeme', badge: 'Test ortamı — gerçek para çekilmez', merchant: 'Mağaza', basket: 'Sepet', amount: 'Tutar',
    card: 'Kart ile öde', number: 'Kart numarası', expiry: 'Son kullanma (AA/YY)', cvc: 'CVV', name: 'Kart üzerindeki isim',
    pay: 'Öde', eft: 'EFT / Havale', eftHelp: 'Banka hesabınızdan havale veya EFT ile ödeyin; ödeme hemen onaylanır.',
    eftPay: 'EFT / Havale ile öde', cancel: 'Vazgeç ve mağazaya dön', cards: 'Test kartları', ok: 'başarılı olur',
    declined: 'reddedilir', delayed: 'gecikmeli olarak başarılı olur', anyData: 'Gelecekteki herhangi bir tarih, 3 haneli herhangi bir CVV ve isim.',
    closed: 'Bu ödeme zaten tamamlandı.', back: 'Mağazaya dön', notFound: 'Ödeme bulunamadı.', fix: 'Lütfen düzeltin:',
    badNumber: '16 haneli kart numarasını girin.', badExpiry: 'Gelecekteki bir tarihi AA/YY olarak girin.',
    badCvc: 'CVV’nin 3 veya 4 hanesini girin.', badName: 'Kart üzerindeki ismi girin.',
  },
  en: {
    title: 'Secure payment', badge: 'Test environment — no real money', merchant: 'Merchant', basket: 'Basket', amount: 'Amount',
    card: 'Pay by card', number: 'Card number', expiry: 'Expiry (MM/YY)', cvc: 'CVV', name: 'Name on card',
    pay: 'Pay', eft: 'Bank transfer (EFT)', eftHelp: 'Pay by a transfer or EFT from your bank account; the payment is confirmed at once.',
    eftPay: 'Pay by bank transfer (EFT)', cancel: 'Give up and return to the shop', cards: 'Test cards', ok: 'succeeds',
    declined: 'is declined', delayed: 'succeeds after a delay', anyData: 'Any future expiry date, any 3-digit CVV and any name.',
    closed: 'This payment is already closed.', back: 'Return to the shop', notFound: 'Payment not found.', fix: 'Please correct the following:',
    badNumber: 'Enter a 16-digit card number.', badExpiry: 'Enter a future expiry date as MM/YY.',
    badCvc: 'Enter the 3 or 4 digits of the CVV.', badName: 'Enter the name on the card.',
  },
} as const;

/** The sandbox's test cards: PayTR's documented test Visa succeeds; the other two are the sandbox's own. */
export const TEST_CARDS = {
  success: '4355084355084358',
  declined: '4000000000000002',
  delayed: '4000000000003220',
} as const;

const CSS = pageCss({
  background: '#f1f5f9', ink: '#0f172a', muted: '#475569', border: '#64748b', accent: '#0f766e', width: '30rem', buttonGap: '1.25rem',
  h2: 'font-size:1.05rem;margin:1.25rem 0 .25rem',
});

export type FieldError = 'badNumber' | 'badExpiry' | 'badCvc' | 'badName';
const FIELD_OF: Record<FieldError, string> = { badNumber: 'cc_number', badExpiry: 'expiry', badCvc: 'cvv', badName: 'cc_owner' };

export interface PayPageModel {
  lang: PageLanguage;
  token: string;
  merchant: string;
  basket: string;
  /** The amount as the page shows it ("10,80"). */
  amount: string;
  errors?: FieldError[];
  /** Values shown again after an error; never the card number or CVV. */
  values?: { expiry?: string; name?: string };
}

export function payPage(m: PayPageModel): string {
  const t = TEXT[m.lang];
  const v = m.values ?? {};
  const errors = errorList(t.fix, (m.errors ?? []).map((e) => t[e]));
  const invalid = new Set(m.errors?.map((e) => FIELD_OF[e]));
  const field = (id: string, label: string, attrs: string, value = '') => input(id, label, `required ${attrs}`, invalid.has(id), value);
  const action = `/odeme/guvenli/${esc(m.token)}`;
  return layout(m.lang, CSS, `${t.title} — ${m.merchant}`, `
<span class="badge">${t.badge}</span><h1>${t.title}</h1>
<dl><dt>${t.merchant}</dt><dd>${esc(m.merchant)}</dd><dt>${t.basket}</dt><dd>${esc(m.basket)}</dd>
<dt>${t.amount}</dt><dd class="amount">${m.amount} TL</dd></dl>${errors}
<h2>${t.card}</h2>
<form method="post" action="${action}" novalidate>
${field('cc_owner', t.name, 'autocomplete="cc-name" maxlength="100"', v.name)}
${field('cc_number', t.number, 'inputmode="numeric" autocomplete="cc-number" maxlength="23"')}
<div class="row"><div>${field('expiry', t.expiry, 'inputmode="numeric" autocomplete="cc-exp" placeholder="MM/YY" maxlength="5"', v.expiry)}</div>
<div>${field('cvv', t.cvc, 'inputmode="numeric" autocomplete="cc-csc" maxlength="4"')}</div></div>
<button type="submit" name="action" value="card">${t.pay} ${m.amount} TL</button>
</form>
<h2>${t.eft}</h2><p>${t.eftHelp}</p>
<form method="post" action="${action}"><button type="submit" name="action" value="eft">${t.eftPay}</button>
<button type="submit" name="action" value="cancel" class="secondary">${t.cancel}</button></form>
<section class="tests" aria-labelledby="tests"><h2 id="tests">${t.cards}</h2>${testCardList([[TEST_CARDS.success, t.ok], [TEST_CARDS.declined, t.declined], [TEST_CARDS.delayed, t.delayed]])}<p>${t.anyData}</p></section>`);
}

export function messagePage(lang: PageLanguage, kind: 'closed' | 'notFound', backUrl?: string): string {
  const t = TEXT[lang];
  return layout(lang, CSS, t.title, messageBody(t, t[kind], backUrl));
}
