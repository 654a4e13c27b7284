import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../i18n';
import type { Language } from '../../../core/i18n';
import type { PageMeta } from '../../app/page';
import { Badge } from '../../components/ui/Badge';
import { Button } from '../../components/ui/Button';
import { Dialog } from '../../components/ui/Dialog';
import { Input } from '../../components/ui/Input';
import { useLanguage } from '../../lib/language';
import { useDeleteFaqItem, useFaqItems, useSaveFaqItem, type FaqItem, type Localized } from './api';
import { notify, notifyError } from './format';
import { emptyLocalized, LocalizedFields, missingLanguages, trimLocalized } from './LocalizedFields';
import { AdminPage, ConfirmDialog, EditDeleteCell, Field, NewButton, Panel, QueryView, Table, td, Th, Toggle, useFailureNotice } from './ui';

export const ns = ['admin'];
export const meta: PageMeta = ({ t }) => ({ title: `${t('admin:faq.title')} · ${t('brand')}` });

/** /admin/faq: questions and answers in az, tr and en, in the order of their index. */
export default function AdminFaqPage() {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const items = useFaqItems();
  const [editing, setEditing] = useState<FaqItem | 'new' | null>(null);
  const [deleting, setDeleting] = useState<FaqItem | null>(null);
  const remove = useDeleteFaqItem();
  useFailureNotice(items, 'notices.faqNotLoaded');

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => notify.success(t('notices.faqDeleted')),
      onError: (err) => notifyError(t, 'notices.deleteFailed', err),
      onSettled: () => setDeleting(null),
    });
  };

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
      <ConfirmDialog
        open={!!deleting}
        onOpenChange={(o) => !o && setDeleting(null)}
        title={t('faq.deleteTitle')}
        description={deleting ? t('faq.deleteText', { name: deleting.question[lang] }) : undefined}
        confirmLabel={t('common.delete')}
        onConfirm={confirmDelete}
        pending={remove.isPending}
        danger
      />
    </AdminPage>
  );
}

function FaqDialog({ item, nextIndex, onClose }: { item: FaqItem | null; nextIndex: number; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const save = useSaveFaqItem();
  const [texts, setTexts] = useState<Record<'question' | 'answer', Localized>>({ question: item?.question ?? emptyLocalized(), answer: item?.answer ?? emptyLocalized() });
  const [orderIndex, setOrderIndex] = useState(String(item?.orderIndex ?? nextIndex));
  const [published, setPublished] = useState(item?.published ?? true);
  const [missing, setMissing] = useState<Language[]>([]);
  const [indexError, setIndexError] = useState<string | undefined>();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const gaps = missingLanguages([texts.question, texts.answer]);
    const index = orderIndex.trim() === '' ? 0 : /^-?\d+$/.test(orderIndex.trim()) ? Number(orderIndex.trim()) : NaN;
    setMissing(gaps);
    setIndexError(Number.isSafeInteger(index) ? undefined : t('services.orderIndexInvalid'));
    if (gaps.length || !Number.isSafeInteger(index)) return;
    save.mutate(
      { id: item?.id, input: { question: trimLocalized(texts.question), answer: trimLocalized(texts.answer), orderIndex: index, published } },
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
    <Dialog open onOpenChange={(o) => !o && onClose()} title={item ? t('faq.editTitle') : t('faq.newTitle')} closeLabel={t('common.close')} className="sm:max-w-4xl">
      <form onSubmit={submit} noValidate className="space-y-5">
        <LocalizedFields
          key={missing.join(',')}
          missing={missing}
          values={texts}
          onChange={(key, lang, value) => setTexts((prev) => ({ ...prev, [key]: { ...prev[key as keyof typeof prev], [lang]: value } }))}
          fields={[
            { key: 'question', label: t('faq.question'), max: 500, required: true },
            { key: 'answer', label: t('faq.answer'), max: 5000, multiline: true, rows: 6, required: true },
          ]}
        />
        {missing.length ? (
          <p role="alert" className="rounded-xl bg-rose-50 px-3 py-2 text-sm font-medium text-rose-700">
            {t('content.missingIn', { langs: missing.map((l) => t(`content.lang.${l}`)).join(', ') })}
          </p>
        ) : null}
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label={t('services.orderIndex')} error={indexError}>
            {({ id, describedBy }) => <Input id={id} type="number" step={1} value={orderIndex} onChange={(e) => setOrderIndex(e.target.value)} aria-describedby={describedBy} aria-invalid={!!indexError} />}
          </Field>
          <div className="flex items-end pb-2">
            <Toggle label={t('blog.publish')} checked={published} onChange={setPublished} />
          </div>
        </div>
        <div className="flex justify-end gap-2 border-t border-slate-200 pt-4">
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
