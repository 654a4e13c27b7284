import { useState } from 'react';
import { useTranslation } from '../../i18n';
import { Input } from '../../components/ui/Input';
import { ApiError } from '../auth/api';
import { useApiServices, useDeleteServiceName, useSaveServiceName, useServiceNames, type ServiceName } from './api';
import { DeleteDialog, FormAlert, FormDialog } from './dialogs';
import { notify } from './format';
import { EditDeleteCell, Field, InputField, NewButton, Panel, QueryView, Table, td, Th, useFailureNotice } from './ui';

/** Per-language display names: an API name (keyword) with its az and tr names (spec 02 §2, §5). */
export function ServiceNamesTab() {
  const { t } = useTranslation('admin');
  const names = useServiceNames();
  const [editing, setEditing] = useState<ServiceName | 'new' | null>(null);
  const [deleting, setDeleting] = useState<ServiceName | null>(null);
  const remove = useDeleteServiceName();

  useFailureNotice(names, 'notices.serviceNamesNotLoaded');

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
      <DeleteDialog
        item={deleting}
        onClose={() => setDeleting(null)}
        remove={remove}
        variables={(n) => n.apiServiceName}
        title={t('names.deleteTitle')}
        description={(n) => t('names.deleteText', { name: n.apiServiceName })}
        onDone={(n) => notify.success(t('notices.serviceNameDeleted'), n.apiServiceName)}
        failedKey="notices.operationFailed"
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

  const submit = () => {
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
    <FormDialog title={name ? t('names.editTitle') : t('names.newTitle')} onClose={onClose} onSubmit={submit} pending={save.isPending} formClassName="space-y-4">
      <Field label={t('names.apiName')} hint={t('names.apiNameHint')}>
        {(control) => (
          <>
            <Input {...control} list="api-service-names" value={form.apiServiceName} onChange={(e) => set('apiServiceName', e.target.value)} maxLength={200} required />
            <datalist id="api-service-names">
              {[...new Set((api.data ?? []).map((s) => s.name))].slice(0, 500).map((n) => (
                <option key={n} value={n} />
              ))}
            </datalist>
          </>
        )}
      </Field>
      <InputField label={t('names.az')} value={form.az} onChange={(e) => set('az', e.target.value)} maxLength={200} required lang="az" />
      <InputField label={t('names.tr')} value={form.tr} onChange={(e) => set('tr', e.target.value)} maxLength={200} required lang="tr" />
      <FormAlert>{error}</FormAlert>
    </FormDialog>
  );
}
