import type { Language } from '../../core/i18n';
import type { MailMessage } from '../mail';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const paragraphs = (s: string) => escapeHtml(s).replace(/\r?\n/g, '<br>');

const REPLY_TEXT: Record<Language, { subject: (title: string) => string; hello: (name: string) => string; intro: string; action: string }> = {
  az: {
    subject: (title) => `Müraciətinizə cavab: ${title}`,
    hello: (name) => `Salam, ${name}!`,
    intro: 'Dəstək komandamız müraciətinizə cavab verdi:',
    action: 'Bütün yazışmanı idarə panelinizin «Dəstək» bölməsində görə bilərsiniz:',
  },
  tr: {
    subject: (title) => `Talebinize yanıt: ${title}`,
    hello: (name) => `Merhaba ${name}!`,
    intro: 'Destek ekibimiz talebinizi yanıtladı:',
    action: 'Tüm yazışmayı panelinizin «Destek» bölümünde görebilirsiniz:',
  },
  en: {
    subject: (title) => `Reply to your ticket: ${title}`,
    hello: (name) => `Hello ${name},`,
    intro: 'Our support team has replied to your ticket:',
    action: 'You can read the whole conversation in the Support tab of your dashboard:',
  },
};

/** Tells a customer that the team replied to their ticket, in the language they opened it in. */
export function ticketReplyMail(opts: {
  to: string;
  name: string;
  title: string;
  reply: string;
  link: string;
  lang: Language;
  siteName: string;
}): MailMessage {
  const t = REPLY_TEXT[opts.lang];
  const text = `${t.hello(opts.name)}\n\n${t.intro}\n\n${opts.reply}\n\n${t.action}\n${opts.link}\n\n— ${opts.siteName}`;
  const html =
    `<p>${escapeHtml(t.hello(opts.name))}</p><p>${escapeHtml(t.intro)}</p>` +
    `<blockquote style="border-left:3px solid #6366f1;margin:0;padding:4px 12px">${paragraphs(opts.reply)}</blockquote>` +
    `<p>${escapeHtml(t.action)}<br><a href="${escapeHtml(opts.link)}">${escapeHtml(opts.link)}</a></p>` +
    `<p>— ${escapeHtml(opts.siteName)}</p>`;
  return { to: opts.to, subject: `${t.subject(opts.title)} · ${opts.siteName}`, text, html };
}

/** Tells the team (settings.notification_email) about a new contact message or consultation. */
export function teamNoticeMail(opts: {
  to: string;
  kind: 'contact' | 'consultation';
  siteName: string;
  fields: [label: string, value: string][];
  body: string;
  adminLink: string;
}): MailMessage {
  const heading = opts.kind === 'contact' ? 'Yeni əlaqə mesajı' : 'Yeni məsləhət sorğusu';
  const lines = opts.fields.map(([k, v]) => `${k}: ${v}`).join('\n');
  const text = `${heading}\n\n${lines}\n\n${opts.body}\n\n${opts.adminLink}`;
  const html =
    `<p><strong>${escapeHtml(heading)}</strong></p>` +
    `<p>${opts.fields.map(([k, v]) => `${escapeHtml(k)}: ${escapeHtml(v)}`).join('<br>')}</p>` +
    `<p>${paragraphs(opts.body)}</p><p><a href="${escapeHtml(opts.adminLink)}">${escapeHtml(opts.adminLink)}</a></p>`;
  const subjectField = opts.fields.find(([k]) => k === 'Mövzu' || k === 'Xidmət')?.[1] ?? '';
  return { to: opts.to, subject: `${heading}${subjectField ? `: ${subjectField}` : ''} · ${opts.siteName}`, text, html };
}
