import { ExternalLink } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from '../../i18n';
import type { PageMeta } from '../../app/page';
import { Badge } from '../../components/ui/Badge';
import { useLanguage } from '../../lib/language';
import { ApiError } from '../../lib/api';
import { useBlogPosts, useDeleteBlogPost, useSaveBlogPost, type BlogPost } from './api';
import { DeleteDialog, FormDialog } from './dialogs';
import { notify, notifyError } from './format';
import { slugify, today } from './forms';
import { LocalizedFields, useLocalizedTexts, type LocalizedField } from './LocalizedFields';
import { AdminPage, EditDeleteCell, InputField, NewButton, Panel, QueryView, Table, td, Th, Toggle, useFailureNotice } from './ui';
import { formatDay } from '../../lib/format';

export const ns = ['admin'];
export const meta: PageMeta = ({ t, site }) => ({ title: `${t('admin:blog.title')} · ${site.site_name}` });

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

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

function PostDialog({ post, onClose }: { post: BlogPost | null; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const save = useSaveBlogPost();
  const [slug, setSlug] = useState(post?.slug ?? '');
  const [slugTouched, setSlugTouched] = useState(!!post);
  const [publishedOn, setPublishedOn] = useState(post?.publishedOn ?? today());
  const [published, setPublished] = useState(post?.published ?? false);
  const { texts, missing, change, check, trimmed } = useLocalizedTexts({ title: post?.title, excerpt: post?.excerpt, body: post?.body });
  const [errors, setErrors] = useState<{ slug?: string; date?: string }>({});
  const fields: LocalizedField<keyof typeof texts>[] = [
    { key: 'title', label: t('blog.postTitle'), max: 200, required: true },
    { key: 'excerpt', label: t('blog.excerpt'), max: 500, multiline: true, rows: 2 },
    { key: 'body', label: t('blog.body'), max: 50_000, multiline: true, rows: 10, required: true },
  ];

  const submit = () => {
    const cleanSlug = slug.trim().toLowerCase();
    const complete = check(fields);
    const next = {
      slug: SLUG.test(cleanSlug) && cleanSlug.length <= 120 ? undefined : t('blog.slugInvalid'),
      date: /^\d{4}-\d{2}-\d{2}$/.test(publishedOn) ? undefined : t('blog.dateInvalid'),
    };
    setErrors(next);
    if (next.slug || next.date || !complete) return;
    save.mutate(
      { id: post?.id, input: { slug: cleanSlug, publishedOn, published, ...trimmed() } },
      {
        onSuccess: () => {
          notify.success(post ? t('notices.postUpdated') : t('notices.postCreated'), texts.title.az);
          onClose();
        },
        onError: (err) => {
          if (err instanceof ApiError && err.code === 'DUPLICATE') setErrors((x) => ({ ...x, slug: t('blog.slugTaken') }));
          notifyError(t, 'notices.operationFailed', err);
        },
      },
    );
  };

  return (
    <FormDialog title={post ? t('blog.editTitle') : t('blog.newTitle')} onClose={onClose} onSubmit={submit} pending={save.isPending} className="sm:max-w-4xl" footerClassName="border-t border-slate-200 pt-4">
      <div className="grid gap-4 sm:grid-cols-[2fr_1fr]">
        <InputField
          label={t('blog.slug')}
          error={errors.slug}
          hint={t('blog.slugHint')}
          value={slug}
          onChange={(e) => {
            setSlug(e.target.value);
            setSlugTouched(true);
          }}
          maxLength={120}
          inputClassName="font-mono"
        />
        <InputField label={t('blog.date')} error={errors.date} type="date" value={publishedOn} onChange={(e) => setPublishedOn(e.target.value)} />
      </div>
      <LocalizedFields
        missing={missing}
        values={texts}
        onChange={(key, lang, value) => {
          change(key, lang, value);
          if (key === 'title' && lang === 'az' && !slugTouched) setSlug(slugify(value));
        }}
        fields={fields}
      />
      <Toggle label={t('blog.publish')} description={t('blog.publishHint')} checked={published} onChange={setPublished} />
    </FormDialog>
  );
}
