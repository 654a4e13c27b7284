import { useQuery } from '@tanstack/react-query';
import { hc } from 'hono/client';
import { useState } from 'react';
import { useTranslation } from '../../i18n';
import type { PageMeta } from '../../app/page';
import { formatDateTime } from '../../lib/format';
import { unwrap } from '../../lib/api';
import type { DevMailboxApiType } from '../../../server/mail/routes';

export const ns = ['auth'];
export const meta: PageMeta = ({ t, site }) => ({ title: `${t('auth:mailbox.title')} · ${site.site_name}` });

/** The dev mailbox's routes (mounted only outside production), typed by the server's `DevMailboxApiType`. */
const mailbox = hc<DevMailboxApiType>('/api/dev/mailbox', { headers: { accept: 'application/json' } });

/** /dev/mailbox: the mail the sandbox kept instead of sending (no SMTP server configured). */
export default function DevMailboxPage() {
  const { t, i18n } = useTranslation('auth');
  const [openId, setOpenId] = useState<number | null>(null);
  const list = useQuery({ queryKey: ['dev-mailbox'], queryFn: () => unwrap((o) => mailbox.index.$get({}, o)), refetchInterval: 3000 });
  const message = useQuery({
    queryKey: ['dev-mailbox', openId],
    queryFn: () => unwrap((o) => mailbox[':id'].$get({ param: { id: String(openId) } }, o)),
    enabled: openId !== null,
  });

  return (
    <main id="main" className="mx-auto max-w-5xl px-4 py-10">
      <h1 className="text-2xl font-bold text-slate-900">{t('mailbox.title')}</h1>
      <p className="mt-1 text-sm text-slate-600">{t('mailbox.intro')}</p>
      {list.isError ? <p className="mt-6 text-rose-700">{t('mailbox.unavailable')}</p> : null}
      <div className="mt-6 grid gap-6 md:grid-cols-[2fr_3fr]">
        <ul className="divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white">
          {list.data?.messages.length === 0 ? <li className="p-4 text-sm text-slate-500">{t('mailbox.empty')}</li> : null}
          {list.data?.messages.map((m) => (
            <li key={m.id}>
              <button type="button" onClick={() => setOpenId(m.id)} className={`block w-full p-4 text-left hover:bg-slate-50 ${openId === m.id ? 'bg-brand-50' : ''}`}>
                <span className="block text-sm font-semibold text-slate-900">{m.subject}</span>
                <span className="block text-xs text-slate-600">
                  {m.to} · {formatDateTime(m.createdAt, i18n.language)}
                </span>
              </button>
            </li>
          ))}
        </ul>
        <article className="rounded-2xl border border-slate-200 bg-white p-4" aria-live="polite">
          {message.data ? (
            <>
              <h2 className="font-semibold text-slate-900">{message.data.message.subject}</h2>
              <p className="text-xs text-slate-600">{message.data.message.to}</p>
              <pre className="mt-4 whitespace-pre-wrap font-sans text-sm text-slate-800">{message.data.message.text}</pre>
              {message.data.message.links.map((link) => (
                <a key={link} href={link} className="mt-3 block break-all text-sm font-medium text-brand-700 underline">
                  {t('mailbox.openLink')}
                </a>
              ))}
            </>
          ) : (
            <p className="text-sm text-slate-500">{t('mailbox.pick')}</p>
          )}
        </article>
      </div>
    </main>
  );
}
