/** The PayTR sandbox's hosted payment page: plain HTML with inline CSS, no scripts, no external assets. */

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

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
const spaced = (card: string) => card.replace(/(\d{4})(?=\d)/g, '$1 ');

const CSS = `
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;background:#f1f5f9;color:#0f172a}
main{max-width:30rem;margin:0 auto;padding:1rem}.card{background:#fff;border-radius:12px;padding:1.25rem;box-shadow:0 1px 3px #0002}
h1{font-size:1.25rem;margin:0 0 .75rem}h2{font-size:1.05rem;margin:1.25rem 0 .25rem}.badge{display:inline-block;background:#fef3c7;color:#78350f;border-radius:999px;padding:.1rem .6rem;font-size:.8rem;margin-bottom:.75rem}
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem .75rem;align-items:baseline;margin:0 0 1rem}dt{color:#475569}dd{margin:0;overflow-wrap:anywhere}
.amount{font-size:1.5rem;font-weight:700}label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input{width:100%;font:inherit;padding:.6rem .7rem;border:1px solid #64748b;border-radius:8px}
input[aria-invalid]{border:2px solid #b91c1c}input:focus,button:focus,a:focus{outline:3px solid #2563eb;outline-offset:2px}.row{display:grid;grid-template-columns:1fr 1fr;gap:.75rem;align-items:end}
button{width:100%;margin-top:1.25rem;font:inherit;font-weight:700;padding:.75rem;border:0;border-radius:8px;background:#0f766e;color:#fff;cursor:pointer}
button.secondary{background:transparent;color:#0f766e;margin-top:.5rem;text-decoration:underline}
.errors{border:2px solid #b91c1c;border-radius:8px;padding:.5rem .75rem;color:#7f1d1d;background:#fef2f2}
.tests{margin-top:1rem;font-size:.9rem}.tests code{font-size:.95rem;white-space:nowrap}`;

function layout(lang: PageLanguage, title: string, body: string): string {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(title)}</title><style>${CSS}</style></head>
<body><main><div class="card">${body}</div></main></body></html>`;
}

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
  const errors = m.errors?.length
    ? `<div class="errors" role="alert"><p>${t.fix}</p><ul>${m.errors.map((e) => `<li>${t[e]}</li>`).join('')}</ul></div>`
    : '';
  const invalid = new Set(m.errors?.map((e) => FIELD_OF[e]));
  const field = (id: string, label: string, attrs: string, value = '') =>
    `<label for="${id}">${label}</label><input id="${id}" name="${id}" required ${attrs}${invalid.has(id) ? ' aria-invalid="true"' : ''} value="${esc(value)}">`;
  const action = `/odeme/guvenli/${esc(m.token)}`;
  return layout(m.lang, `${t.title} — ${m.merchant}`, `
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
<section class="tests" aria-labelledby="tests"><h2 id="tests">${t.cards}</h2><ul>
<li><code>${spaced(TEST_CARDS.success)}</code> — ${t.ok}</li>
<li><code>${spaced(TEST_CARDS.declined)}</code> — ${t.declined}</li>
<li><code>${spaced(TEST_CARDS.delayed)}</code> — ${t.delayed}</li></ul><p>${t.anyData}</p></section>`);
}

export function messagePage(lang: PageLanguage, kind: 'closed' | 'notFound', backUrl?: string): string {
  const t = TEXT[lang];
  const back = backUrl ? `<p><a href="${esc(backUrl)}">${t.back}</a></p>` : '';
  return layout(lang, t.title, `<span class="badge">${t.badge}</span><h1>${t.title}</h1><p role="status">${t[kind]}</p>${back}`);
}
