/** The sandbox Payriff's hosted payment page: plain HTML with inline CSS, no scripts, no external assets. */

export type PageLanguage = 'az' | 'en' | 'ru';

const TEXT = {
  en: {
    title: 'Payment', badge: 'Payriff sandbox — no real money', merchant: 'Merchant', description: 'Description',
    amount: 'Amount', wallets: 'Pay with a wallet', orCard: 'or pay by card', number: 'Card number', expiry: 'Expiry (MM/YY)',
    cvc: 'CVC', name: 'Name on card', pay: 'Pay', cancel: 'Cancel and return', cards: 'Test cards', ok: 'succeeds',
    declined: 'is declined', delayed: 'succeeds after a delay', walletsOk: 'Apple Pay and Google Pay always succeed.',
    anyData: 'Any future expiry date, any 3-digit CVC and any name.', closed: 'This payment is already closed.',
    back: 'Return to the shop', notFound: 'Payment not found.', fix: 'Please correct the following:',
    badNumber: 'Enter a 16-digit card number.', badExpiry: 'Enter a future expiry date as MM/YY.',
    badCvc: 'Enter the 3 or 4 digits of the CVC.', badName: 'Enter the name on the card.',
  },
  az: {
    title: 'Ödəniş', badge: 'Payriff sınaq rejimi — real pul yoxdur', merchant: 'Satıcı', description: 'Təsvir',
    amount: 'Məbləğ', wallets: 'Pul kisəsi ilə ödə', orCard: 'və ya kartla ödə', number: 'Kart nömrəsi', expiry: 'Bitmə tarixi (AA/İİ)',
    cvc: 'CVC', name: 'Kart sahibinin adı', pay: 'Ödə', cancel: 'Ləğv et və qayıt', cards: 'Sınaq kartları', ok: 'uğurlu olur',
    declined: 'rədd edilir', delayed: 'gecikmə ilə uğurlu olur', walletsOk: 'Apple Pay və Google Pay həmişə uğurlu olur.',
    anyData: 'İstənilən gələcək tarix, istənilən 3 rəqəmli CVC və ad.', closed: 'Bu ödəniş artıq bağlanıb.',
    back: 'Mağazaya qayıt', notFound: 'Ödəniş tapılmadı.', fix: 'Zəhmət olmasa düzəldin:',
    badNumber: '16 rəqəmli kart nömrəsini daxil edin.', badExpiry: 'Gələcək tarixi AA/İİ şəklində daxil edin.',
    badCvc: 'CVC-nin 3 və ya 4 rəqəmini daxil edin.', badName: 'Kart sahibinin adını daxil edin.',
  },
  ru: {
    title: 'Оплата', badge: 'Тестовый режим Payriff — без реальных денег', merchant: 'Продавец', description: 'Описание',
    amount: 'Сумма', wallets: 'Оплатить кошельком', orCard: 'или картой', number: 'Номер карты', expiry: 'Срок действия (ММ/ГГ)',
    cvc: 'CVC', name: 'Имя на карте', pay: 'Оплатить', cancel: 'Отменить и вернуться', cards: 'Тестовые карты', ok: 'успешна',
    declined: 'отклоняется', delayed: 'успешна с задержкой', walletsOk: 'Apple Pay и Google Pay всегда успешны.',
    anyData: 'Любой будущий срок, любой трёхзначный CVC и любое имя.', closed: 'Этот платёж уже закрыт.',
    back: 'Вернуться в магазин', notFound: 'Платёж не найден.', fix: 'Исправьте, пожалуйста:',
    badNumber: 'Введите 16-значный номер карты.', badExpiry: 'Введите будущий срок в формате ММ/ГГ.',
    badCvc: 'Введите 3 или 4 цифры CVC.', badName: 'Введите имя на карте.',
  },
} as const;

export const TEST_CARDS = {
  success: '4169741330151979',
  declined: '4000000000000002',
  delayed: '4000000000003220',
} as const;

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
const spaced = (card: string) => card.replace(/(\d{4})(?=\d)/g, '$1 ');

const CSS = `
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;background:#eef2ff;color:#111827}
main{max-width:28rem;margin:0 auto;padding:1rem}.card{background:#fff;border-radius:12px;padding:1.25rem;box-shadow:0 1px 3px #0002}
h1{font-size:1.25rem;margin:0 0 .75rem}h2{font-size:1rem;margin:1rem 0 .25rem}.badge{display:inline-block;background:#fef3c7;color:#78350f;border-radius:999px;padding:.1rem .6rem;font-size:.8rem;margin-bottom:.75rem}
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem .75rem;align-items:baseline;margin:0 0 1rem}dt{color:#4b5563}dd{margin:0;overflow-wrap:anywhere}
.amount{font-size:1.5rem;font-weight:700}label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input{width:100%;font:inherit;padding:.6rem .7rem;border:1px solid #6b7280;border-radius:8px}
input[aria-invalid]{border:2px solid #b91c1c}input:focus,button:focus,a:focus{outline:3px solid #2563eb;outline-offset:2px}.row{display:grid;grid-template-columns:1fr 1fr;gap:.75rem;align-items:end}
button{width:100%;margin-top:1rem;font:inherit;font-weight:700;padding:.75rem;border:0;border-radius:8px;background:#4338ca;color:#fff;cursor:pointer}
button.wallet{background:#000;margin-top:.5rem}button.secondary{background:transparent;color:#4338ca;margin-top:.5rem;text-decoration:underline}
.errors{border:2px solid #b91c1c;border-radius:8px;padding:.5rem .75rem;color:#7f1d1d;background:#fef2f2}
.tests{margin-top:1rem;font-size:.9rem}.tests code{font-size:.95rem;white-space:nowrap}`;

function layout(lang: PageLanguage, title: string, body: string): string {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(title)}</title><style>${CSS}</style></head>
<body><main><div class="card">${body}</div></main></body></html>`;
}

export type FieldError = 'badNumber' | 'badExpiry' | 'badCvc' | 'badName';

const FIELD_OF: Record<FieldError, string> = { badNumber: 'number', badExpiry: 'expiry', badCvc: 'cvc', badName: 'name' };

export interface PayPageModel {
  lang: PageLanguage;
  orderId: string;
  merchant: string;
  description: string;
  amount: string;
  currency: string;
  errors?: FieldError[];
  /** Values shown again after an error; never the card number or CVC. */
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
    `<label for="${id}">${label}</label><input id="${id}" name="${id}" ${attrs}${invalid.has(id) ? ' aria-invalid="true"' : ''} value="${esc(value)}">`;
  const total = `${m.amount} ${esc(m.currency)}`;
  return layout(m.lang, `${t.title} — ${m.merchant}`, `
<span class="badge">${t.badge}</span><h1>${t.title}</h1>
<dl><dt>${t.merchant}</dt><dd>${esc(m.merchant)}</dd><dt>${t.description}</dt><dd>${esc(m.description)}</dd>
<dt>${t.amount}</dt><dd class="amount">${total}</dd></dl>${errors}
<form method="post" action="/pay/${esc(m.orderId)}" novalidate>
<h2>${t.wallets}</h2>
<button type="submit" name="action" value="apple-pay" class="wallet">Apple Pay</button>
<button type="submit" name="action" value="google-pay" class="wallet">Google Pay</button>
<h2>${t.orCard}</h2>
${field('number', t.number, 'inputmode="numeric" autocomplete="cc-number" maxlength="23"')}
<div class="row"><div>${field('expiry', t.expiry, 'inputmode="numeric" autocomplete="cc-exp" placeholder="MM/YY" maxlength="5"', v.expiry)}</div>
<div>${field('cvc', t.cvc, 'inputmode="numeric" autocomplete="cc-csc" maxlength="4"')}</div></div>
${field('name', t.name, 'autocomplete="cc-name" maxlength="100"', v.name)}
<button type="submit" name="action" value="pay">${t.pay} ${total}</button>
<button type="submit" name="action" value="cancel" class="secondary">${t.cancel}</button>
</form>
<section class="tests" aria-labelledby="tests"><h2 id="tests">${t.cards}</h2><ul>
<li><code>${spaced(TEST_CARDS.success)}</code> — ${t.ok}</li>
<li><code>${spaced(TEST_CARDS.declined)}</code> — ${t.declined}</li>
<li><code>${spaced(TEST_CARDS.delayed)}</code> — ${t.delayed}</li></ul><p>${t.walletsOk}</p><p>${t.anyData}</p></section>`);
}

export function messagePage(lang: PageLanguage, kind: 'closed' | 'notFound', backUrl?: string | null): string {
  const t = TEXT[lang];
  const back = backUrl ? `<p><a href="${esc(backUrl)}">${t.back}</a></p>` : '';
  return layout(lang, t.title, `<span class="badge">${t.badge}</span><h1>${t.title}</h1><p role="status">${t[kind]}</p>${back}`);
}
