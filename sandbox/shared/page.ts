/**
 * The pieces the payment sandboxes' hosted pages share: plain HTML with inline CSS, no scripts,
 * no external assets. Each page keeps its own words, fields, colours and form.
 */

export const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** A card number in groups of four. */
export const spaced = (card: string) => card.replace(/(\d{4})(?=\d)/g, '$1 ');

export interface PageColours {
  background: string;
  ink: string;
  /** Labels of the summary (dt). */
  muted: string;
  /** Input borders. */
  border: string;
  /** The main button and the secondary link. */
  accent: string;
  /** The card's width. */
  width: string;
  /** Space above a button. */
  buttonGap: string;
  /** Rules for h2, if the page has section titles. */
  h2?: string;
  /** More button rules (e.g. wallets), before the secondary button's. */
  buttons?: string;
}

export function pageCss(o: PageColours): string {
  return `
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;background:${o.background};color:${o.ink}}
main{max-width:${o.width};margin:0 auto;padding:1rem}.card{background:#fff;border-radius:12px;padding:1.25rem;box-shadow:0 1px 3px #0002}
h1{font-size:1.25rem;margin:0 0 .75rem}${o.h2 ? `h2{${o.h2}}` : ''}.badge{display:inline-block;background:#fef3c7;color:#78350f;border-radius:999px;padding:.1rem .6rem;font-size:.8rem;margin-bottom:.75rem}
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem .75rem;align-items:baseline;margin:0 0 1rem}dt{color:${o.muted}}dd{margin:0;overflow-wrap:anywhere}
.amount{font-size:1.5rem;font-weight:700}label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input{width:100%;font:inherit;padding:.6rem .7rem;border:1px solid ${o.border};border-radius:8px}
input[aria-invalid]{border:2px solid #b91c1c}input:focus,button:focus,a:focus{outline:3px solid #2563eb;outline-offset:2px}.row{display:grid;grid-template-columns:1fr 1fr;gap:.75rem;align-items:end}
button{width:100%;margin-top:${o.buttonGap};font:inherit;font-weight:700;padding:.75rem;border:0;border-radius:8px;background:${o.accent};color:#fff;cursor:pointer}
${o.buttons ?? ''}button.secondary{background:transparent;color:${o.accent};margin-top:.5rem;text-decoration:underline}
.errors{border:2px solid #b91c1c;border-radius:8px;padding:.5rem .75rem;color:#7f1d1d;background:#fef2f2}
.tests{margin-top:1rem;font-size:.9rem}.tests code{font-size:.95rem;white-space:nowrap}`;
}

/** The whole document around a page's card. */
export function layout(lang: string, css: string, title: string, body: string): string {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(title)}</title><style>${css}</style></head>
<body><main><div class="card">${body}</div></main></body></html>`;
}

/** The alert listing what to correct; empty when there is nothing. */
export const errorList = (fix: string, messages: readonly string[]) =>
  messages.length ? `<div class="errors" role="alert"><p>${fix}</p><ul>${messages.map((m) => `<li>${m}</li>`).join('')}</ul></div>` : '';

/** A labelled input; `invalid` marks it for assistive technology. */
export const input = (id: string, label: string, attrs: string, invalid: boolean, value = '') =>
  `<label for="${id}">${label}</label><input id="${id}" name="${id}" ${attrs}${invalid ? ' aria-invalid="true"' : ''} value="${esc(value)}">`;

/** The page's test cards and what each does. */
export const testCardList = (cards: readonly (readonly [card: string, does: string])[]) =>
  `<ul>\n${cards.map(([card, does]) => `<li><code>${spaced(card)}</code> — ${does}</li>`).join('\n')}</ul>`;

/** A page that only says something (closed, not found), with a way back when there is one. */
export const messageBody = (t: { badge: string; title: string; back: string }, message: string, backUrl?: string | null) =>
  `<span class="badge">${t.badge}</span><h1>${t.title}</h1><p role="status">${message}</p>${backUrl ? `<p><a href="${esc(backUrl)}">${t.back}</a></p>` : ''}`;
