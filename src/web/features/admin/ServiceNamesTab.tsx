import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../i18n';
import { Button } from '../../components/ui/Button';
import { Dialog } from '../../components/ui/Dialog';
import { Input } from '../../components/ui/Input';
import { ApiError } from '../auth/api';
import { useApiServices, useDeleteServiceName, useSaveServiceName, useServiceNames, type ServiceName } from './api';
import { notify, notifyError } from './format';
import { ConfirmDialog, EditDeleteCell, Field, NewButton, Panel, QueryView, Table, td, Th, useFailureNotice } from './ui';

/** Per-language display names: an API name (keyword) with its az and tr names (spec 02 §2, §5). */
export function ServiceNamesTab() {
  const { t } = useTranslation('admin');
  const names = useServiceNames();
  const [editing, setEditing] = useState<ServiceName | 'new' | null>(null);
  const [deleting, setDeleting] = useState<ServiceName | null>(null);
  const remove = useDeleteServiceName();

  useFailureNotice(names, 'notices.serviceNamesNotLoaded');

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.apiServiceName, {
      onSuccess: () => notify.success(t('notices.serviceNameDeleted'), deleting.apiServiceName),
      onError: (err) => notifyError(t, 'notices.operationFailed', err),
      onSettled: () => setDeleting(null),
    });
  };

  return (
    <Panel>
      <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-200 p-4">
        <p className="max-w-2xl text-sm text-slate-600">{t('names.lead')}</p>
        <NewButton onClick={() => setEditing('new')}>{t('names.new')}</NewButton>
      </div>
      <QueryView query={names} error={t('notices.serviceNamesNotLoaded')} empty={t('names.empty')} isEmpty={(data) => data.length === 0}>
        {(data) => (
          <Table
            label={t('services.tabs.names')}
            minWidth="min-w-[640px]"
            head={
              <>
                <Th>{t('names.apiName')}</Th>
                <Th>{t('names.az')}</Th>
                <Th>{t('names.tr')}</Th>
                <Th className="text-right">{t('common.actions')}</Th>
              </>
            }
          >
            {data.map((n) => (
              <tr key={n.apiServiceName} data-testid="service-name-row">
                <td className={`${td} font-medium text-slate-900`}>{n.apiServiceName}</td>
                <td className={td}>{n.az || '—'}</td>
                <td className={td}>{n.tr || '—'}</td>
                <EditDeleteCell name={n.apiServiceName} onEdit={() => setEditing(n)} onDelete={() => setDeleting(n)} />
              </tr>
            ))}
          </Table>
        )}
      </QueryView>
      {editing ? <NameDialog name={editing === 'new' ? null : editing} onClose={() => setEditing(null)} /> : null}
      <ConfirmDialog
        open={!!deleting}
        onOpenChange={(o) => !o && setDeleting(null)}
        title={t('names.deleteTitle')}
        description={deleting ? t('names.deleteText', { name: deleting.apiServiceName }) : undefined}
        confirmLabel={t('common.delete')}
        onConfirm={confirmDelete}
        pending={remove.isPending}
        danger
      />
    </Panel>
  );
}

function NameDialog({ name, onClose }: { name: ServiceName | null; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const save = useSaveServiceName();
  const api = useApiServices();
  const [form, setForm] = useState<ServiceName>(name ?? { apiServiceName: '', az: '', tr: '' });
  const [error, setError] = useState<string | null>(null);
  const set = (k: keyof ServiceName, v: string) => setForm((f) => ({ ...f, [k]: v }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const input = { apiServiceName: form.apiServiceName.trim(), az: form.az.trim(), tr: form.tr.trim() };
    if (!input.apiServiceName || !input.az || !input.tr) {
      setError(t('names.fillAll'));
      return;
    }
    setError(null);
    save.mutate(
      { original: name?.apiServiceName, input },
      {
        onSuccess: () => {
          notify.success(name ? t('notices.serviceNameUpdated') : t('notices.serviceNameCreated'), input.apiServiceName);
          onClose();
        },
        onError: (err) => {
          const message = err instanceof ApiError && err.code === 'DUPLICATE' ? t('names.duplicate') : t('notices.operationFailed');
          setError(message);
          notify.error(message);
        },
      },
    );
  };

  return (
    <Dialog open onOpenChange={(o) => !o && onClose()} title={name ? t('names.editTitle') : t('names.newTitle')} closeLabel={t('common.close')}>
      <form onSubmit={submit} noValidate className="space-y-4">
        <Field label={t('names.apiName')} hint={t('names.apiNameHint')}>
          {({ id, describedBy }) => (
            <>
              <Input id={id} list="api-service-names" value={form.apiServiceName} onChange={(e) => set('apiServiceName', e.target.value)} aria-describedby={describedBy} maxLength={200} required />
              <datalist id="api-service-names">
                {[...new Set((api.data ?? []).map((s) => s.name))].slice(0, 500).map((n) => (
                  <option key={n} value={n} />
                ))}
              </datalist>
            </>
          )}
        </Field>
        <Field label={t('names.az')}>{({ id }) => <Input id={id} value={form.az} onChange={(e) => set('az', e.target.value)} maxLength={200} required lang="az" />}</Field>
        <Field label={t('names.tr')}>{({ id }) => <Input id={id} value={form.tr} onChange={(e) => set('tr', e.target.value)} maxLength={200} required lang="tr" />}</Field>
        {error ? (
          <p role="alert" className="rounded-xl bg-rose-50 px-3 py-2 text-sm font-medium text-rose-700">
            {error}
          </p>
        ) : null}
        <div className="flex justify-end gap-2">
          <Button variant="outline" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" disabled={save.isPending} aria-busy={save.isPending}>
            {t('common.save')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
