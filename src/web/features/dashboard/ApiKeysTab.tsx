import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { AlertTriangle, Check, Copy, KeyRound, RefreshCw, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from '../../lib/toast';
import { createApiKeySchema, MAX_API_KEYS, type ApiKeyView } from '../../../core/contracts/reseller';
import { useTranslation } from '../../i18n';
import { Button, FieldError, Input, Label } from '../../components/ui';
import { LoadingBox } from '../../components/ui/QueryState';
import { useLanguage } from '../../lib/language';
import { formatDateTime } from '../../lib/format';
import { createApiKey, resellerKeys, revokeApiKey, rotateApiKey, useApiKeys } from './resellerApi';
import { errorText } from '../../lib/errorText';

/**
 * Keys of the reseller API (/api/v2): create, rotate and revoke. A new key is shown once, here,
 * until the tab is left; the server keeps only its hash.
 */
export function ApiKeysTab({ locale }: { locale: string }) {
  const { t } = useTranslation('reseller');
  const lang = useLanguage();
  const id = useId();
  const queryClient = useQueryClient();
  const keys = useApiKeys();
  // The contract of a new key: an optional name, trimmed.
  const form = useForm({ resolver: zodResolver(createApiKeySchema), defaultValues: { name: '' } });
  const [busy, setBusy] = useState<string | null>(null);
  const [shown, setShown] = useState<{ key: string; name: string } | null>(null);
  const [copied, setCopied] = useState(false);

  const refresh = () => queryClient.invalidateQueries({ queryKey: resellerKeys.keys() });
  const fail = (err: unknown) => toast.error(t('keys.failed'), { description: errorText(t, err, 'reseller') });

  const create = form.handleSubmit(async ({ name }) => {
    if (busy) return;
    setBusy('create');
    try {
      const created = await createApiKey(name);
      setShown({ key: created.key, name: created.view.name });
      setCopied(false);
      form.reset();
      await refresh();
    } catch (err) {
      fail(err);
    } finally {
      setBusy(null);
    }
  });

  async function rotate(k: ApiKeyView) {
    if (busy || !window.confirm(t('keys.rotateConfirm'))) return;
    setBusy(k.id);
    try {
      const created = await rotateApiKey(k.id);
      setShown({ key: created.key, name: created.view.name });
      setCopied(false);
      await refresh();
    } catch (err) {
      fail(err);
    } finally {
      setBusy(null);
    }
  }

  async function revoke(k: ApiKeyView) {
    if (busy || !window.confirm(t('keys.revokeConfirm'))) return;
    setBusy(k.id);
    try {
      await revokeApiKey(k.id);
      toast.success(t('keys.revoked'));
      await refresh();
    } catch (err) {
      fail(err);
    } finally {
      setBusy(null);
    }
  }

  async function copy() {
    if (!shown) return;
    try {
      await navigator.clipboard.writeText(shown.key);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  }

  if (keys.isPending) {
    return <LoadingBox label={t('keys.loading')} spinnerClassName="size-8" />;
  }
  if (keys.isError) {
    return (
      <div role="alert" className="rounded-2xl border border-rose-200 bg-white px-6 py-10 text-center text-sm text-slate-700">
        {errorText(t, keys.error, 'reseller')}
      </div>
    );
  }
  const { keys: list, enabled } = keys.data;
  const full = list.length >= MAX_API_KEYS;

  return (
    <div className="space-y-6 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm" data-testid="api-keys">
      <div>
        <h2 className="flex items-center gap-2 text-lg font-bold text-slate-900">
          <KeyRound className="size-5 text-brand-600" aria-hidden="true" />
          {t('keys.title')}
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          {t('keys.intro')}{' '}
          <a href={`/${lang}/api`} className="font-semibold text-brand-700 hover:underline">
            {t('keys.docs')}
          </a>
        </p>
      </div>

      {!enabled ? (
        <p role="alert" className="flex items-start gap-2 rounded-xl bg-amber-50 px-4 py-3 text-sm text-amber-900">
          <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          {t('keys.disabled')}
        </p>
      ) : null}

      {shown ? (
        <div role="status" className="rounded-xl border border-emerald-200 bg-emerald-50 p-4" data-testid="new-api-key">
          <p className="text-sm font-semibold text-emerald-900">{t('keys.showOnce')}</p>
          <div className="mt-2 flex flex-wrap items-center gap-2">
            <code className="select-all break-all rounded-lg bg-white px-3 py-2 font-mono text-sm text-slate-900 ring-1 ring-emerald-200">{shown.key}</code>
            <Button variant="outline" size="sm" onClick={() => void copy()}>
              {copied ? <Check className="size-4" aria-hidden="true" /> : <Copy className="size-4" aria-hidden="true" />}
              {copied ? t('keys.copied') : t('keys.copy')}
            </Button>
          </div>
        </div>
      ) : null}

      {enabled ? (
        <form onSubmit={(e) => void create(e)} noValidate className="flex flex-wrap items-end gap-3">
          <div className="min-w-56 flex-1">
            <Label htmlFor={`${id}-name`}>{t('keys.name')}</Label>
            <Input id={`${id}-name`} {...form.register('name')} maxLength={60} placeholder={t('keys.namePlaceholder')} aria-describedby={full ? `${id}-full` : undefined} />
            {full ? <FieldError id={`${id}-full`}>{t('keys.full', { max: MAX_API_KEYS })}</FieldError> : null}
          </div>
          <Button type="submit" disabled={full || busy !== null} aria-busy={busy === 'create'}>
            {t('keys.create')}
          </Button>
        </form>
      ) : null}

      {list.length === 0 ? (
        <p className="text-sm text-slate-600">{t('keys.none')}</p>
      ) : (
        <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200">
          {list.map((k) => (
            <li key={k.id} data-key={k.prefix} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
              <div className="min-w-0 text-sm">
                <p className="font-semibold text-slate-900">
                  {k.name || t('keys.unnamed')} <span className="font-mono text-xs text-slate-500">{k.prefix}…</span>
                </p>
                <p className="text-xs text-slate-500">
                  {t('keys.created', { date: formatDateTime(k.createdAt, locale) })} ·{' '}
                  {k.lastUsedAt ? t('keys.lastUsed', { date: formatDateTime(k.lastUsedAt, locale), ip: k.lastUsedIp ?? '—' }) : t('keys.neverUsed')}
                </p>
              </div>
              <div className="flex gap-2">
                <Button variant="outline" size="sm" disabled={!enabled || busy !== null} onClick={() => void rotate(k)}>
                  <RefreshCw className="size-4" aria-hidden="true" />
                  {t('keys.rotate')}
                </Button>
                <Button variant="ghost" size="sm" disabled={busy !== null} onClick={() => void revoke(k)} className="text-rose-700">
                  <Trash2 className="size-4" aria-hidden="true" />
                  {t('keys.revoke')}
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
