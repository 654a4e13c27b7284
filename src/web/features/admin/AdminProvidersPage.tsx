import { zodResolver } from '@hookform/resolvers/zod';
import { List, Pencil, PlugZap, RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { PROVIDER_PROTOCOL_OPTIONS, providerInputSchema } from '../../../core/contracts/admin';
import { useTranslation } from '../../i18n';
import type { PageMeta } from '../../app/page';
import { Badge } from '../../components/ui/Badge';
import { Button } from '../../components/ui/Button';
import { Input } from '../../components/ui/Input';
import { formatDateTime } from '../../lib/format';
import { useLanguage } from '../../lib/language';
import { useProviders, useReadCatalogue, useSaveProvider, useTestProvider, type AdminProvider } from './api';
import { CatalogChangesPanel } from './CatalogChangesPanel';
import { FormDialog } from './dialogs';
import { notify, notifyError } from './format';
import { ProviderServicesDialog } from './ProviderCatalogue';
import { AdminPage, Field, InputField, NewButton, Panel, QueryView, Select, Table, td, Th, Toggle, useFailureNotice } from './ui';

export const ns = ['admin'];
export const meta: PageMeta = ({ t, site }) => ({ title: `${t('admin:providers.title')} · ${site.site_name}` });

/**
 * /admin/providers: the SMM providers the shop buys from. Each is added with its API key, which is
 * shown afterwards only as its last four characters; a test reads its balance now. The first is
 * the default provider, whose catalogue the services are (docs/decisions/0016). Each provider's
 * catalogue is read here on demand and its services imported with a markup; below, the changes
 * the reads found wait for the team's answer (src/server/catalog/sources.ts).
 */
export default function AdminProvidersPage() {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const list = useProviders();
  const save = useSaveProvider();
  const test = useTestProvider();
  const read = useReadCatalogue();
  const [editing, setEditing] = useState<AdminProvider | 'new' | null>(null);
  const [browsing, setBrowsing] = useState<AdminProvider | null>(null);
  useFailureNotice(list, 'notices.providersNotLoaded');

  const runTest = (p: AdminProvider) =>
    test.mutate(p.id, {
      onSuccess: (r) => (r.ok && r.balance ? notify.success(t('providers.testOk', { name: p.name }), `${r.balance.amount} ${r.balance.currency}`) : notify.error(t('providers.testFailed', { name: p.name }), r.error ?? undefined)),
      onError: (err) => notifyError(t, 'providers.testFailed', err),
    });
  const readNow = (p: AdminProvider) =>
    read.mutate(p.id, {
      onSuccess: (r) => notify.success(t('catalogue.readDone', { name: p.name }), t('catalogue.readCounts', { services: r.services, changes: r.changes, paused: r.paused, imported: r.imported })),
      onError: (err) => notifyError(t, 'catalogue.readFailed', err),
    });
  const setEnabled = (p: AdminProvider, enabled: boolean) =>
    save.mutate(
      { id: p.id, input: { enabled } },
      {
        onSuccess: () => notify.success(enabled ? t('notices.providerEnabled') : t('notices.providerDisabled')),
        onError: (err) => notifyError(t, 'notices.operationFailed', err),
      },
    );

  return (
    <AdminPage title={t('providers.title')} description={t('providers.lead')} actions={<NewButton onClick={() => setEditing('new')}>{t('providers.new')}</NewButton>}>
      <Panel>
        <QueryView query={list} error={t('notices.providersNotLoaded')} empty={t('providers.empty')} isEmpty={(data) => data.length === 0}>
          {(data) => (
            <Table
              label={t('providers.title')}
              minWidth="min-w-[960px]"
              head={
                <>
                  <Th>{t('providers.name')}</Th>
                  <Th>{t('providers.protocol')}</Th>
                  <Th>{t('providers.key')}</Th>
                  <Th className="text-right">{t('providers.callsPerSecond')}</Th>
                  <Th>{t('providers.balance')}</Th>
                  <Th>{t('blog.state')}</Th>
                  <Th className="text-right">{t('common.actions')}</Th>
                </>
              }
            >
              {data.map((p) => (
                <tr key={p.id} data-testid="provider-row">
                  <td className={td}>
                    <p className="font-medium text-slate-900">
                      {p.name} {p.isDefault ? <Badge tone="brand">{t('providers.default')}</Badge> : null}
                    </p>
                    <p className="max-w-xs truncate text-xs text-slate-500">{p.url}</p>
                    <div className="mt-2 flex flex-wrap gap-1">
                      <Button size="sm" variant="outline" className="whitespace-nowrap" onClick={() => setBrowsing(p)} aria-label={t('catalogue.servicesItem', { name: p.name })}>
                        <List className="size-4" aria-hidden="true" />
                        {t('catalogue.services')}
                      </Button>
                      <Button size="sm" variant="outline" className="whitespace-nowrap" onClick={() => readNow(p)} disabled={read.isPending} aria-busy={read.isPending && read.variables === p.id} aria-label={t('catalogue.readNowItem', { name: p.name })}>
                        <RefreshCw className={`size-4 ${read.isPending && read.variables === p.id ? 'animate-spin' : ''}`} aria-hidden="true" />
                        {t('catalogue.readNow')}
                      </Button>
                    </div>
                  </td>
                  <td className={td}>{t(`providers.protocols.${p.protocol}`)}</td>
                  <td className={`${td} font-mono`}>{p.keyHint}</td>
                  <td className={`${td} text-right tabular-nums`}>{p.callsPerSecond || t('providers.unpaced')}</td>
                  <td className={td}>
                    {p.balance ? (
                      <>
                        <p className="tabular-nums text-slate-900">
                          {p.balance.amount} {p.balance.currency}
                        </p>
                        <p className="text-xs text-slate-500">{formatDateTime(p.balance.at, lang)}</p>
                      </>
                    ) : (
                      <span className="text-slate-500">{t('providers.balanceUnknown')}</span>
                    )}
                  </td>
                  <td className={td}>
                    <Badge tone={p.enabled ? 'success' : 'neutral'}>{p.enabled ? t('providers.enabled') : t('providers.disabled')}</Badge>
                  </td>
                  <td className={`${td} whitespace-nowrap text-right`}>
                    <div className="inline-flex gap-1">
                      <Button size="sm" variant="outline" onClick={() => runTest(p)} disabled={test.isPending} aria-busy={test.isPending && test.variables === p.id} aria-label={t('providers.testItem', { name: p.name })}>
                        <PlugZap className="size-4" aria-hidden="true" />
                        {t('providers.test')}
                      </Button>
                      <Button size="sm" variant="ghost" onClick={() => setEnabled(p, !p.enabled)} disabled={save.isPending}>
                        {p.enabled ? t('providers.disable') : t('providers.enable')}
                      </Button>
                      <Button size="sm" variant="ghost" onClick={() => setEditing(p)} aria-label={t('common.editItem', { name: p.name })}>
                        <Pencil className="size-4" aria-hidden="true" />
                      </Button>
                    </div>
                  </td>
                </tr>
              ))}
            </Table>
          )}
        </QueryView>
      </Panel>
      <CatalogChangesPanel providers={list.data ?? []} />
      {browsing ? <ProviderServicesDialog provider={browsing} onClose={() => setBrowsing(null)} /> : null}
      {editing ? <ProviderDialog provider={editing === 'new' ? null : editing} onClose={() => setEditing(null)} /> : null}
    </AdminPage>
  );
}

/** The form: the contract's fields; the key is required for a new provider and left blank to keep the saved one. */
const providerFormSchema = z.object({
  name: providerInputSchema.shape.name,
  protocol: providerInputSchema.shape.protocol,
  url: z.string().trim().pipe(z.url({ protocol: /^https?$/ })),
  key: z.string().trim().max(500),
  callsPerSecond: z.string().regex(/^\d{1,4}$/).transform(Number).pipe(z.number().max(1000)),
  enabled: z.boolean(),
});

function ProviderDialog({ provider, onClose }: { provider: AdminProvider | null; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const save = useSaveProvider();
  const form = useForm({
    resolver: zodResolver(providerFormSchema),
    defaultValues: {
      name: provider?.name ?? '',
      protocol: provider?.protocol ?? 'smm-v2',
      url: provider?.url ?? '',
      key: '',
      callsPerSecond: String(provider?.callsPerSecond ?? 0),
      enabled: provider?.enabled ?? true,
    },
  });
  const { errors } = form.formState;
  // The environment's provider is called as PROVIDER* say: its protocol, address and key are not edited here.
  // The environment's provider, and one the process describes in a slot (the sandbox's second): protocol, address and key are the process's.
  const fromEnv = provider?.fromEnv === true || provider?.envSlot != null;

  const submit = (values: z.output<typeof providerFormSchema>) => {
    if (!provider && !values.key) {
      form.setError('key', { message: 'required' });
      return;
    }
    const { key, ...rest } = values;
    const done = {
      onSuccess: () => {
        notify.success(provider ? t('notices.providerUpdated') : t('notices.providerCreated'));
        onClose();
      },
      onError: (err: unknown) => notifyError(t, 'notices.operationFailed', err),
    };
    if (provider && fromEnv) save.mutate({ id: provider.id, input: { name: rest.name, callsPerSecond: rest.callsPerSecond, enabled: rest.enabled } }, done);
    else if (provider) save.mutate({ id: provider.id, input: key ? { ...rest, key } : rest }, done);
    else save.mutate({ input: { ...rest, key } }, done);
  };

  return (
    <FormDialog
      title={provider ? t('providers.editTitle') : t('providers.newTitle')}
      description={fromEnv ? t('providers.fromEnv') : undefined}
      onClose={onClose}
      onSubmit={() => void form.handleSubmit(submit)()}
      pending={save.isPending}
      className="sm:max-w-xl"
    >
      <InputField label={t('providers.name')} error={errors.name ? t('providers.nameInvalid') : undefined} maxLength={80} autoComplete="off" {...form.register('name')} />
      <Field label={t('providers.protocol')}>
        {(control) => (
          <Select {...control} disabled={fromEnv} {...form.register('protocol')}>
            {PROVIDER_PROTOCOL_OPTIONS.map((p) => (
              <option key={p} value={p}>
                {t(`providers.protocols.${p}`)}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <InputField label={t('providers.url')} hint={t('providers.urlHint')} error={errors.url ? t('providers.urlInvalid') : undefined} type="url" inputMode="url" autoComplete="off" readOnly={fromEnv} {...form.register('url')} />
      <Field label={t('providers.key')} hint={provider ? t('providers.keyKeep', { hint: provider.keyHint }) : t('providers.keyHint')} error={errors.key ? t('providers.keyRequired') : undefined}>
        {(control) => <Input {...control} type="password" autoComplete="new-password" maxLength={500} disabled={fromEnv} {...form.register('key')} />}
      </Field>
      <InputField
        label={t('providers.callsPerSecond')}
        hint={t('providers.callsHint')}
        error={errors.callsPerSecond ? t('providers.callsInvalid') : undefined}
        type="number"
        min={0}
        max={1000}
        step={1}
        {...form.register('callsPerSecond')}
      />
      <Toggle label={t('providers.enabled')} description={t('providers.enabledHint')} checked={form.watch('enabled')} onChange={(v) => form.setValue('enabled', v)} />
    </FormDialog>
  );
}
