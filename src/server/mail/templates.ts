import type { Language } from '../../core/i18n';
import type { MailMessage } from './mailer';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The words of a mail that carries one link to act on. */
type LinkMailText = Record<Language, { subject: string; hello: (name: string) => string; body: string; action: string; ignore: string }>;
type LinkMailOptions = { to: string; name: string; link: string; lang: Language; siteName: string };

/** A mail with a greeting, a sentence, the link (as text and as a named link) and a sign-off, in the visitor's language. */
function linkMail(words: LinkMailText, opts: LinkMailOptions): MailMessage {
  const t = words[opts.lang];
  const text = `${t.hello(opts.name)}\n\n${t.body}\n\n${opts.link}\n\n${t.ignore}\n\n— ${opts.siteName}`;
  const html =
    `<p>${escapeHtml(t.hello(opts.name))}</p><p>${escapeHtml(t.body)}</p>` +
    `<p><a href="${escapeHtml(opts.link)}">${escapeHtml(t.action)}</a></p>` +
    `<p>${escapeHtml(t.ignore)}</p><p>— ${escapeHtml(opts.siteName)}</p>`;
  return { to: opts.to, subject: `${t.subject} · ${opts.siteName}`, text, html };
}

const RESET_TEXT: LinkMailText = {
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
export const passwordResetMail = (opts: LinkMailOptions): MailMessage => linkMail(RESET_TEXT, opts);

const VERIFY_TEXT: LinkMailText = {
  az: {
    subject: 'E-poçt ünvanınızı təsdiqləyin',
    hello: (name) => `Salam, ${name}!`,
    body: 'Hesabınızın e-poçt ünvanını təsdiqləmək üçün aşağıdakı linki açın. Qeydiyyat bonusu (əgər varsa) təsdiqdən sonra balansınıza əlavə olunur. Link 3 gün etibarlıdır.',
    action: 'E-poçtu təsdiqlə',
    ignore: 'Bu hesabı siz yaratmamısınızsa, bu məktubu nəzərə almayın.',
  },
  tr: {
    subject: 'E-posta adresinizi doğrulayın',
    hello: (name) => `Merhaba ${name}!`,
    body: 'Hesabınızın e-posta adresini doğrulamak için aşağıdaki bağlantıyı açın. Kayıt bonusu (varsa) doğrulamadan sonra bakiyenize eklenir. Bağlantı 3 gün geçerlidir.',
    action: 'E-postayı doğrula',
    ignore: 'Bu hesabı siz oluşturmadıysanız bu e-postayı dikkate almayın.',
  },
  en: {
    subject: 'Confirm your e-mail address',
    hello: (name) => `Hello ${name},`,
    body: 'Open the link below to confirm the e-mail address of your account. The sign-up bonus, if there is one, is added to your balance once it is confirmed. The link is valid for 3 days.',
    action: 'Confirm my e-mail',
    ignore: 'If you did not create this account, ignore this e-mail.',
  },
};

/** The e-mail confirmation message sent after sign-up, in the language the visitor was using. */
export const verifyEmailMail = (opts: LinkMailOptions): MailMessage => linkMail(VERIFY_TEXT, opts);

const SECOND_FACTOR_REMOVED_TEXT: LinkMailText = {
  az: {
    subject: 'Hesabınızda iki mərhələli giriş söndürüldü',
    hello: (name) => `Salam, ${name}!`,
    body:
      'Komandamız hesabınızın ikinci mərhələsini sildi: iki mərhələli giriş söndürüldü və bütün cihazlarda hesabınızdan çıxış edildi. ' +
      'İndi yalnız şifrənizlə daxil olursunuz. Hesabı yenidən qorumaq üçün «Parametrlər» → «Təhlükəsizlik» bölməsində iki mərhələli girişi aktivləşdirin.',
    action: 'Parametrləri aç',
    ignore: 'Bunu bizdən siz istəməmisinizsə, dərhal bizə yazın və şifrənizi dəyişin.',
  },
  tr: {
    subject: 'Hesabınızda iki adımlı doğrulama kapatıldı',
    hello: (name) => `Merhaba ${name}!`,
    body:
      'Ekibimiz hesabınızın ikinci adımını kaldırdı: iki adımlı doğrulama kapatıldı ve tüm cihazlardaki oturumlarınız sonlandırıldı. ' +
      'Artık yalnızca şifrenizle giriş yapıyorsunuz. Hesabınızı yeniden korumak için «Ayarlar» → «Güvenlik» bölümünden iki adımlı doğrulamayı açın.',
    action: 'Ayarları aç',
    ignore: 'Bunu bizden siz istemediyseniz hemen bize yazın ve şifrenizi değiştirin.',
  },
  en: {
    subject: 'Two-factor sign-in was turned off on your account',
    hello: (name) => `Hello ${name},`,
    body:
      'Our team has removed the second factor of your account: two-factor sign-in is off, and you have been signed out everywhere. ' +
      'You now sign in with your password alone. To protect the account again, turn two-factor sign-in on under Settings → Security.',
    action: 'Open my settings',
    ignore: 'If you did not ask us for this, write to us at once and change your password.',
  },
};

/**
 * Tells an account that the team removed its second factor (docs/rules.md#second-factor), in the
 * language of its newest sign-in; the link opens its settings. The team's reason is not in it.
 */
export const secondFactorRemovedMail = (opts: LinkMailOptions): MailMessage => linkMail(SECOND_FACTOR_REMOVED_TEXT, opts);

/**
 * The team's notice that a provider has run out of the shop's money (docs/rules.md#provider-funds),
 * sent once per episode to the notification address, in Azerbaijani and English.
 */
export function providerFundsMail(opts: { to: string; provider: string; since: Date; waiting: number; siteName: string }): MailMessage {
  const when = opts.since.toISOString().slice(0, 16).replace('T', ' ');
  const text =
    `Təchizatçı "${opts.provider}" ${when} UTC-dən bəri sifarişləri balans çatışmadığı üçün qəbul etmir. ` +
    `Gözləyən sifarişlər: ${opts.waiting}. Onlar təchizatçının balansı artırılan kimi göndəriləcək, ya da müəyyən vaxtdan sonra geri qaytarılacaq.\n\n` +
    `Provider "${opts.provider}" has refused orders for want of funds since ${when} UTC. Orders waiting: ${opts.waiting}. ` +
    `They are sent as soon as the provider's balance is topped up, or refunded after the set time.\n\n— ${opts.siteName}`;
  const html = text
    .split('\n\n')
    .map((p) => `<p>${escapeHtml(p)}</p>`)
    .join('');
  return { to: opts.to, subject: `Təchizatçının balansı bitib / Provider out of funds: ${opts.provider} · ${opts.siteName}`, text, html };
}
