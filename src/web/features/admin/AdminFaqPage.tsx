import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { faqInputSchema } from '../../../core/contracts/admin';
import { LANGUAGES } from '../../../core/i18n';
import { useTranslation } from '../../i18n';
import type { PageMeta } from '../../app/page';
import { Badge } from '../../components/ui/Badge';
import { useLanguage } from '../../lib/language';
import { useDeleteFaqItem, useFaqItems, useSaveFaqItem, type FaqItem } from './api';
import { DeleteDialog, FormDialog } from './dialogs';
import { notify, notifyError } from './format';
import { parseOrderIndex } from './forms';
import { LocalizedFields, type LocalizedField } from './LocalizedFields';
import { Input } from '../../components/ui/Input';
import { AdminPage, EditDeleteCell, Field, NewButton, Panel, QueryView, Table, td, Th, Toggle, useFailureNotice } from './ui';

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

/**
 * The question form: the contract's texts (trimmed, a question and an answer in each language) and
 * a position read by `parseOrderIndex` (a whole number, blank as 0).
 */
const faqFormSchema = z.object({
  question: faqInputSchema.shape.question,
  answer: faqInputSchema.shape.answer,
  orderIndex: z.string().transform((text, ctx) => {
    const index = parseOrderIndex(text);
    if (index === undefined) {
      ctx.addIssue({ code: 'custom', message: 'orderIndexInvalid' });
      return z.NEVER;
    }
    return index;
  }),
  published: z.boolean(),
});

const blank = { az: '', tr: '', en: '' };

function FaqDialog({ item, nextIndex, onClose }: { item: FaqItem | null; nextIndex: number; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const save = useSaveFaqItem();
  // Checked when sent only: the languages that miss a text stay marked (and their tab open) while they are typed in.
  const form = useForm({
    resolver: zodResolver(faqFormSchema),
    reValidateMode: 'onSubmit',
    shouldFocusError: false,
    defaultValues: { question: item?.question ?? blank, answer: item?.answer ?? blank, orderIndex: String(item?.orderIndex ?? nextIndex), published: item?.published ?? true },
  });
  const { errors } = form.formState;
  const texts = { question: form.watch('question'), answer: form.watch('answer') };
  const missing = LANGUAGES.filter((l) => errors.question?.[l] || errors.answer?.[l]);
  const fields: LocalizedField<keyof typeof texts>[] = [
    { key: 'question', label: t('faq.question'), max: 500, required: true },
    { key: 'answer', label: t('faq.answer'), max: 5000, multiline: true, rows: 6, required: true },
  ];

  const submit = (input: z.output<typeof faqFormSchema>) => {
    save.mutate(
      { id: item?.id, input },
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
    <FormDialog
      title={item ? t('faq.editTitle') : t('faq.newTitle')}
      onClose={onClose}
      onSubmit={() => void form.handleSubmit(submit)()}
      pending={save.isPending}
      className="sm:max-w-4xl"
      footerClassName="border-t border-slate-200 pt-4"
    >
      <LocalizedFields missing={missing} values={texts} onChange={(key, lang, value) => form.setValue(`${key}.${lang}`, value)} fields={fields} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label={t('services.orderIndex')} error={errors.orderIndex ? t('services.orderIndexInvalid') : undefined}>
          {(control) => <Input {...control} type="number" step={1} {...form.register('orderIndex')} />}
        </Field>
        <div className="flex items-end pb-2">
          <Toggle label={t('blog.publish')} checked={form.watch('published')} onChange={(v) => form.setValue('published', v)} />
        </div>
      </div>
    </FormDialog>
  );
}
