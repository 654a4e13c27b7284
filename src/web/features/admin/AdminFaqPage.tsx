import { useState } from 'react';
import { useTranslation } from '../../i18n';
import type { PageMeta } from '../../app/page';
import { Badge } from '../../components/ui/Badge';
import { useLanguage } from '../../lib/language';
import { useDeleteFaqItem, useFaqItems, useSaveFaqItem, type FaqItem } from './api';
import { DeleteDialog, FormDialog } from './dialogs';
import { notify, notifyError } from './format';
import { parseOrderIndex } from './forms';
import { LocalizedFields, useLocalizedTexts, type LocalizedField } from './LocalizedFields';
import { AdminPage, EditDeleteCell, InputField, NewButton, Panel, QueryView, Table, td, Th, Toggle, useFailureNotice } from './ui';

export const ns = ['admin'];
export const meta: PageMeta = ({ t, site }) => ({ title: `${t('admin:faq.title')} · ${site.site_name}` });

/** /admin/faq: questions and answers in az, tr and en, in the order of their index. */
export default function AdminFaqPage() {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const items = useFaqItems();
  const [editing, setEditing] = useState<FaqItem | 'new' | null>(null);
  const [deleting, setDeleting] = useState<FaqItem | null>(null);
  const remove = useDeleteFaqItem();
  useFailureNotice(items, 'notices.faqNotLoaded');

  return (
    <AdminPage
      title={t('faq.title')}
      description={t('faq.lead')}
      actions={<NewButton onClick={() => setEditing('new')}>{t('faq.new')}</NewButton>}
    >
      <Panel>
        <QueryView query={items} error={t('notices.faqNotLoaded')} empty={t('faq.empty')} isEmpty={(data) => data.length === 0}>
          {(data) => (
            <Table
              label={t('faq.title')}
              minWidth="min-w-[680px]"
              head={
                <>
                  <Th className="w-16 text-right">#</Th>
                  <Th>{t('faq.question')}</Th>
                  <Th>{t('blog.state')}</Th>
                  <Th className="text-right">{t('common.actions')}</Th>
                </>
              }
            >
              {data.map((f) => (
                <tr key={f.id} data-testid="faq-row">
                  <td className={`${td} text-right tabular-nums text-slate-500`}>{f.orderIndex}</td>
                  <td className={td}>
                    <p className="font-medium text-slate-900">{f.question[lang] || f.question.az}</p>
                    <p className="max-w-xl truncate text-xs text-slate-500">{f.answer[lang] || f.answer.az}</p>
                  </td>
                  <td className={td}>
                    <Badge tone={f.published ? 'success' : 'neutral'}>{f.published ? t('blog.published') : t('blog.draft')}</Badge>
                  </td>
                  <EditDeleteCell name={f.question[lang]} onEdit={() => setEditing(f)} onDelete={() => setDeleting(f)} />
                </tr>
              ))}
            </Table>
          )}
        </QueryView>
      </Panel>
      {editing ? <FaqDialog item={editing === 'new' ? null : editing} nextIndex={(items.data?.at(-1)?.orderIndex ?? 0) + 1} onClose={() => setEditing(null)} /> : null}
      <DeleteDialog
        item={deleting}
        onClose={() => setDeleting(null)}
        remove={remove}
        variables={(f) => f.id}
        title={t('faq.deleteTitle')}
        description={(f) => t('faq.deleteText', { name: f.question[lang] })}
        onDone={() => notify.success(t('notices.faqDeleted'))}
        failedKey="notices.deleteFailed"
      />
    </AdminPage>
  );
}

function FaqDialog({ item, nextIndex, onClose }: { item: FaqItem | null; nextIndex: number; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const save = useSaveFaqItem();
  const { texts, missing, change, check, trimmed } = useLocalizedTexts({ question: item?.question, answer: item?.answer });
  const [orderIndex, setOrderIndex] = useState(String(item?.orderIndex ?? nextIndex));
  const [published, setPublished] = useState(item?.published ?? true);
  const [indexError, setIndexError] = useState<string | undefined>();
  const fields: LocalizedField<keyof typeof texts>[] = [
    { key: 'question', label: t('faq.question'), max: 500, required: true },
    { key: 'answer', label: t('faq.answer'), max: 5000, multiline: true, rows: 6, required: true },
  ];

  const submit = () => {
    const complete = check(fields);
    const index = parseOrderIndex(orderIndex);
    setIndexError(index === undefined ? t('services.orderIndexInvalid') : undefined);
    if (!complete || index === undefined) return;
    save.mutate(
      { id: item?.id, input: { ...trimmed(), orderIndex: index, published } },
      {
        onSuccess: () => {
          notify.success(item ? t('notices.faqUpdated') : t('notices.faqCreated'));
          onClose();
        },
        onError: (err) => notifyError(t, 'notices.operationFailed', err),
      },
    );
  };

  return (
    <FormDialog title={item ? t('faq.editTitle') : t('faq.newTitle')} onClose={onClose} onSubmit={submit} pending={save.isPending} className="sm:max-w-4xl" footerClassName="border-t border-slate-200 pt-4">
      <LocalizedFields missing={missing} values={texts} onChange={change} fields={fields} />
      <div className="grid gap-4 sm:grid-cols-2">
        <InputField label={t('services.orderIndex')} error={indexError} type="number" step={1} value={orderIndex} onChange={(e) => setOrderIndex(e.target.value)} />
        <div className="flex items-end pb-2">
          <Toggle label={t('blog.publish')} checked={published} onChange={setPublished} />
        </div>
      </div>
    </FormDialog>
  );
}
