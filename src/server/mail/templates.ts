import type { Language } from '../../core/i18n';
import type { MailMessage } from './mailer';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const RESET_TEXT: Record<Language, { subject: string; hello: (name: string) => string; body: string; action: string; ignore: string }> = {
  az: {
    subject: 'Şifrənin bərpası',
    hello: (name) => `Salam, ${name}!`,
    body: 'Şifrənizi yeniləmək üçün aşağıdakı linki açın. Link 1 saat etibarlıdır və yalnız bir dəfə işləyir.',
    action: 'Yeni şifrə təyin et',
    ignore: 'Bu sorğunu siz göndərməmisinizsə, bu məktubu nəzərə almayın.',
  },
  tr: {
    subject: 'Şifre sıfırlama',
    hello: (name) => `Merhaba ${name}!`,
    body: 'Şifrenizi yenilemek için aşağıdaki bağlantıyı açın. Bağlantı 1 saat geçerlidir ve yalnızca bir kez çalışır.',
    action: 'Yeni şifre belirle',
    ignore: 'Bu isteği siz göndermediyseniz bu e-postayı dikkate almayın.',
  },
  en: {
    subject: 'Reset your password',
    hello: (name) => `Hello ${name},`,
    body: 'Open the link below to set a new password. The link is valid for 1 hour and works once.',
    action: 'Set a new password',
    ignore: 'If you did not ask for this, ignore this e-mail.',
  },
};

/** The password-reset message, in the language the visitor was using. */
export function passwordResetMail(opts: { to: string; name: string; link: string; lang: Language; siteName: string }): MailMessage {
  const t = RESET_TEXT[opts.lang];
  const text = `${t.hello(opts.name)}\n\n${t.body}\n\n${opts.link}\n\n${t.ignore}\n\n— ${opts.siteName}`;
  const html =
    `<p>${escapeHtml(t.hello(opts.name))}</p><p>${escapeHtml(t.body)}</p>` +
    `<p><a href="${escapeHtml(opts.link)}">${escapeHtml(t.action)}</a></p>` +
    `<p>${escapeHtml(t.ignore)}</p><p>— ${escapeHtml(opts.siteName)}</p>`;
  return { to: opts.to, subject: `${t.subject} · ${opts.siteName}`, text, html };
}
