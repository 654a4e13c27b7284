import { ExternalLink } from 'lucide-react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { blogPostInputSchema } from '../../../core/contracts/admin';
import { LANGUAGES } from '../../../core/i18n';
import { Input } from '../../components/ui/Input';
import { useTranslation } from '../../i18n';
import type { PageMeta } from '../../app/page';
import { Badge } from '../../components/ui/Badge';
import { useLanguage } from '../../lib/language';
import { ApiError } from '../../lib/api';
import { useBlogPosts, useDeleteBlogPost, useSaveBlogPost, type BlogPost } from './api';
import { DeleteDialog, FormDialog } from './dialogs';
import { notify, notifyError } from './format';
import { slugify, today } from './forms';
import { LocalizedFields, type LocalizedField } from './LocalizedFields';
import { AdminPage, EditDeleteCell, Field, NewButton, Panel, QueryView, Table, td, Th, Toggle, useFailureNotice } from './ui';
import { formatDay } from '../../lib/format';

export const ns = ['admin'];
export const meta: PageMeta = ({ t, site }) => ({ title: `${t('admin:blog.title')} · ${site.site_name}` });

/** /admin/blog: posts in az, tr and en; published ones appear at /{lang}/blog and in the sitemaps. */
export default function AdminBlogPage() {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const posts = useBlogPosts();
  const [editing, setEditing] = useState<BlogPost | 'new' | null>(null);
  const [deleting, setDeleting] = useState<BlogPost | null>(null);
  const remove = useDeleteBlogPost();
  useFailureNotice(posts, 'notices.postsNotLoaded');

  return (
    <AdminPage
      title={t('blog.title')}
      description={t('blog.lead')}
      actions={<NewButton onClick={() => setEditing('new')}>{t('blog.new')}</NewButton>}
    >
      <Panel>
        <QueryView query={posts} error={t('notices.postsNotLoaded')} empty={t('blog.empty')} isEmpty={(data) => data.length === 0}>
          {(data) => (
            <Table
              label={t('blog.title')}
              minWidth="min-w-[720px]"
              head={
                <>
                  <Th>{t('blog.postTitle')}</Th>
                  <Th>{t('blog.date')}</Th>
                  <Th>{t('blog.state')}</Th>
                  <Th className="text-right">{t('common.actions')}</Th>
                </>
              }
            >
              {data.map((p) => (
                <tr key={p.id} data-testid="blog-row">
                  <td className={td}>
                    <p className="font-medium text-slate-900">{p.title[lang] || p.title.az}</p>
                    <p className="font-mono text-xs text-slate-500">/{p.slug}</p>
                  </td>
                  <td className={`${td} whitespace-nowrap`}>{formatDay(p.publishedOn, lang)}</td>
                  <td className={td}>
                    <Badge tone={p.published ? 'success' : 'neutral'}>{p.published ? t('blog.published') : t('blog.draft')}</Badge>
                  </td>
                  <EditDeleteCell name={p.title[lang] || p.slug} onEdit={() => setEditing(p)} onDelete={() => setDeleting(p)}>
                    {p.published ? (
                      <a href={`/${lang}/blog/${p.slug}`} target="_blank" rel="noreferrer" className="inline-flex h-9 items-center rounded-xl px-3 text-slate-700 hover:bg-slate-100" aria-label={t('blog.view', { name: p.title[lang] })}>
                        <ExternalLink className="size-4" aria-hidden="true" />
                      </a>
                    ) : null}
                  </EditDeleteCell>
                </tr>
              ))}
            </Table>
          )}
        </QueryView>
      </Panel>
      {editing ? <PostDialog post={editing === 'new' ? null : editing} onClose={() => setEditing(null)} /> : null}
      <DeleteDialog
        item={deleting}
        onClose={() => setDeleting(null)}
        remove={remove}
        variables={(p) => p.id}
        title={t('blog.deleteTitle')}
        description={(p) => t('blog.deleteText', { name: p.title[lang] || p.slug })}
        onDone={(p) => notify.success(t('notices.postDeleted'), p.title[lang])}
        failedKey="notices.deleteFailed"
      />
    </AdminPage>
  );
}

/** The post form: the contract's fields (slug and texts trimmed, the slug in lower case), with the publish flag as set. */
const postFormSchema = blogPostInputSchema.extend({ published: z.boolean() });
const blank = { az: '', tr: '', en: '' };

function PostDialog({ post, onClose }: { post: BlogPost | null; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const save = useSaveBlogPost();
  const [slugTouched, setSlugTouched] = useState(!!post);
  // Checked when sent only: the languages that miss a text stay marked (and their tab open) while they are typed in.
  const form = useForm({
    resolver: zodResolver(postFormSchema),
    reValidateMode: 'onSubmit',
    shouldFocusError: false,
    defaultValues: {
      slug: post?.slug ?? '',
      publishedOn: post?.publishedOn ?? today(),
      published: post?.published ?? false,
      title: post?.title ?? blank,
      excerpt: post?.excerpt ?? blank,
      body: post?.body ?? blank,
    },
  });
  const { errors } = form.formState;
  const texts = { title: form.watch('title'), excerpt: form.watch('excerpt'), body: form.watch('body') };
  const missing = LANGUAGES.filter((l) => errors.title?.[l] || errors.body?.[l]);
  const fields: LocalizedField<keyof typeof texts>[] = [
    { key: 'title', label: t('blog.postTitle'), max: 200, required: true },
    { key: 'excerpt', label: t('blog.excerpt'), max: 500, multiline: true, rows: 2 },
    { key: 'body', label: t('blog.body'), max: 50_000, multiline: true, rows: 10, required: true },
  ];
  const slugError = errors.slug ? (errors.slug.type === 'server' ? t('blog.slugTaken') : t('blog.slugInvalid')) : undefined;
  const slugField = form.register('slug');

  const submit = (input: z.output<typeof postFormSchema>) => {
    save.mutate(
      { id: post?.id, input },
      {
        onSuccess: () => {
          notify.success(post ? t('notices.postUpdated') : t('notices.postCreated'), form.getValues('title.az'));
          onClose();
        },
        onError: (err) => {
          if (err instanceof ApiError && err.code === 'DUPLICATE') form.setError('slug', { type: 'server' });
          notifyError(t, 'notices.operationFailed', err);
        },
      },
    );
  };

  return (
    <FormDialog
      title={post ? t('blog.editTitle') : t('blog.newTitle')}
      onClose={onClose}
      onSubmit={() => void form.handleSubmit(submit)()}
      pending={save.isPending}
      className="sm:max-w-4xl"
      footerClassName="border-t border-slate-200 pt-4"
    >
      <div className="grid gap-4 sm:grid-cols-[2fr_1fr]">
        <Field label={t('blog.slug')} error={slugError} hint={t('blog.slugHint')}>
          {(control) => (
            <Input
              {...control}
              {...slugField}
              onChange={(e) => {
                setSlugTouched(true);
                return slugField.onChange(e);
              }}
              maxLength={120}
              className="font-mono"
            />
          )}
        </Field>
        <Field label={t('blog.date')} error={errors.publishedOn ? t('blog.dateInvalid') : undefined}>
          {(control) => <Input {...control} type="date" {...form.register('publishedOn')} />}
        </Field>
      </div>
      <LocalizedFields
        missing={missing}
        values={texts}
        onChange={(key, lang, value) => {
          form.setValue(`${key}.${lang}`, value);
          if (key === 'title' && lang === 'az' && !slugTouched) form.setValue('slug', slugify(value));
        }}
        fields={fields}
      />
      <Toggle label={t('blog.publish')} description={t('blog.publishHint')} checked={form.watch('published')} onChange={(v) => form.setValue('published', v)} />
    </FormDialog>
  );
}
