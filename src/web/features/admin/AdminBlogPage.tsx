import { ExternalLink } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../i18n';
import type { Language } from '../../../core/i18n';
import type { PageMeta } from '../../app/page';
import { Badge } from '../../components/ui/Badge';
import { Button } from '../../components/ui/Button';
import { Dialog } from '../../components/ui/Dialog';
import { Input } from '../../components/ui/Input';
import { useLanguage } from '../../lib/language';
import { ApiError } from '../auth/api';
import { useBlogPosts, useDeleteBlogPost, useSaveBlogPost, type BlogPost, type Localized } from './api';
import { formatDay, notify, notifyError } from './format';
import { slugify, today } from './forms';
import { emptyLocalized, LocalizedFields, missingLanguages, trimLocalized } from './LocalizedFields';
import { AdminPage, ConfirmDialog, EditDeleteCell, Field, NewButton, Panel, QueryView, Table, td, Th, Toggle, useFailureNotice } from './ui';

export const ns = ['admin'];
export const meta: PageMeta = ({ t }) => ({ title: `${t('admin:blog.title')} · ${t('brand')}` });

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

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => notify.success(t('notices.postDeleted'), deleting.title[lang]),
      onError: (err) => notifyError(t, 'notices.deleteFailed', err),
      onSettled: () => setDeleting(null),
    });
  };

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
      <ConfirmDialog
        open={!!deleting}
        onOpenChange={(o) => !o && setDeleting(null)}
        title={t('blog.deleteTitle')}
        description={deleting ? t('blog.deleteText', { name: deleting.title[lang] || deleting.slug }) : undefined}
        confirmLabel={t('common.delete')}
        onConfirm={confirmDelete}
        pending={remove.isPending}
        danger
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
  const [texts, setTexts] = useState<Record<'title' | 'excerpt' | 'body', Localized>>({
    title: post?.title ?? emptyLocalized(),
    excerpt: post?.excerpt ?? emptyLocalized(),
    body: post?.body ?? emptyLocalized(),
  });
  const [missing, setMissing] = useState<Language[]>([]);
  const [errors, setErrors] = useState<{ slug?: string; date?: string; form?: string }>({});

  const change = (key: string, lang: Language, value: string) => {
    setTexts((prev) => ({ ...prev, [key]: { ...prev[key as keyof typeof prev], [lang]: value } }));
    if (key === 'title' && lang === 'az' && !slugTouched) setSlug(slugify(value));
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const cleanSlug = slug.trim().toLowerCase();
    const gaps = missingLanguages([texts.title, texts.body]);
    const next = {
      slug: SLUG.test(cleanSlug) && cleanSlug.length <= 120 ? undefined : t('blog.slugInvalid'),
      date: /^\d{4}-\d{2}-\d{2}$/.test(publishedOn) ? undefined : t('blog.dateInvalid'),
    };
    setMissing(gaps);
    setErrors(next);
    if (next.slug || next.date || gaps.length) return;
    save.mutate(
      {
        id: post?.id,
        input: { slug: cleanSlug, publishedOn, published, title: trimLocalized(texts.title), excerpt: trimLocalized(texts.excerpt), body: trimLocalized(texts.body) },
      },
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
    <Dialog open onOpenChange={(o) => !o && onClose()} title={post ? t('blog.editTitle') : t('blog.newTitle')} closeLabel={t('common.close')} className="sm:max-w-4xl">
      <form onSubmit={submit} noValidate className="space-y-5">
        <div className="grid gap-4 sm:grid-cols-[2fr_1fr]">
          <Field label={t('blog.slug')} error={errors.slug} hint={t('blog.slugHint')}>
            {({ id, describedBy }) => (
              <Input
                id={id}
                value={slug}
                onChange={(e) => {
                  setSlug(e.target.value);
                  setSlugTouched(true);
                }}
                aria-describedby={describedBy}
                aria-invalid={!!errors.slug}
                maxLength={120}
                className="font-mono"
              />
            )}
          </Field>
          <Field label={t('blog.date')} error={errors.date}>
            {({ id, describedBy }) => <Input id={id} type="date" value={publishedOn} onChange={(e) => setPublishedOn(e.target.value)} aria-describedby={describedBy} aria-invalid={!!errors.date} />}
          </Field>
        </div>
        <LocalizedFields
          key={missing.join(',')}
          missing={missing}
          values={texts}
          onChange={change}
          fields={[
            { key: 'title', label: t('blog.postTitle'), max: 200, required: true },
            { key: 'excerpt', label: t('blog.excerpt'), max: 500, multiline: true, rows: 2 },
            { key: 'body', label: t('blog.body'), max: 50_000, multiline: true, rows: 10, required: true },
          ]}
        />
        {missing.length ? (
          <p role="alert" className="rounded-xl bg-rose-50 px-3 py-2 text-sm font-medium text-rose-700">
            {t('content.missingIn', { langs: missing.map((l) => t(`content.lang.${l}`)).join(', ') })}
          </p>
        ) : null}
        <Toggle label={t('blog.publish')} description={t('blog.publishHint')} checked={published} onChange={setPublished} />
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
