import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { I18n, I18nProvider } from '../../i18n';
import admin from '../../i18n/locales/en/admin.json';
import common from '../../i18n/locales/en/common.json';
import { LocalizedFields } from './LocalizedFields';
import { ApiError } from '../../lib/api';
import { EditDeleteCell, InputField, QueryView } from './ui';

const html = (node: ReactNode) => renderToStaticMarkup(<I18nProvider i18n={new I18n('en', { en: { admin, common } })}>{node}</I18nProvider>);
const attr = (markup: string, tag: string, name: string) => new RegExp(`<${tag}[^>]*\\s${name}="([^"]*)"`).exec(markup)?.[1];

describe('admin building blocks', () => {
  it('ties a field’s label, hint and error to its input, and marks it invalid only with an error', () => {
    const plain = html(<InputField label="Slug" hint="Latin letters" value="" onChange={() => {}} />);
    const id = attr(plain, 'input', 'id');
    expect(attr(plain, 'label', 'for')).toBe(id);
    expect(attr(plain, 'input', 'aria-describedby')).toBe(`${id}-hint`);
    expect(attr(plain, 'input', 'aria-invalid')).toBeUndefined();

    const wrong = html(<InputField label="Slug" hint="Latin letters" error="Taken" value="" onChange={() => {}} />);
    const wrongId = attr(wrong, 'input', 'id');
    expect(attr(wrong, 'input', 'aria-describedby')).toBe(`${wrongId}-error ${wrongId}-hint`);
    expect(attr(wrong, 'input', 'aria-invalid')).toBe('true');
    expect(wrong).toContain(`id="${wrongId}-error" class="mt-1.5 text-sm text-rose-600">Taken</p>`);
  });

  it('shows a list query’s failure, loading, emptiness, or its rows', () => {
    const view = (query: { isError: boolean; data: string[] | undefined }) =>
      html(
        <QueryView query={{ ...query, refetch: () => undefined }} error="Posts not loaded" empty="No posts" isEmpty={(d) => d.length === 0}>
          {(data) => <p>{data.join(',')}</p>}
        </QueryView>,
      );
    const failed = view({ isError: true, data: undefined });
    expect(failed).toContain('role="alert"');
    expect(failed).toContain('Posts not loaded');
    expect(failed).toContain('Try again');
    expect(view({ isError: false, data: undefined })).toContain('role="status"');
    expect(view({ isError: false, data: [] })).toContain('No posts');
    // A failed refresh keeps the rows it has.
    expect(view({ isError: true, data: ['a', 'b'] })).toBe('<p>a,b</p>');
  });

  it('says a list the role may not read (403) is not theirs, with nothing to try again', () => {
    const refused = (error: ApiError) =>
      html(
        <QueryView query={{ isError: true, error, data: undefined, refetch: () => undefined }} error="Settings not loaded" empty="" isEmpty={() => false}>
          {() => null}
        </QueryView>,
      );
    const forbidden = refused(new ApiError('FORBIDDEN', 403));
    expect(forbidden).toContain('role="alert"');
    expect(forbidden).toContain('You have no access to this section');
    expect(forbidden).not.toContain('Settings not loaded');
    expect(forbidden).not.toContain('Try again');
    // Any other failure may pass: it keeps its retry.
    expect(refused(new ApiError('INTERNAL', 500))).toContain('Try again');
  });

  it('names a row’s edit and delete buttons after the item', () => {
    const cell = html(
      <table>
        <tbody>
          <tr>
            <EditDeleteCell name="Likes" onEdit={() => {}} onDelete={() => {}} />
          </tr>
        </tbody>
      </table>,
    );
    expect(cell).toContain('aria-label="Edit Likes"');
    expect(cell).toContain('aria-label="Delete Likes"');
  });

  it('opens the first language missing a required text and names the missing languages', () => {
    const values = { title: { az: 'Başlıq', tr: '', en: '' } };
    const fields = [{ key: 'title' as const, label: 'Title', max: 200, required: true }];
    const none = html(<LocalizedFields fields={fields} values={values} onChange={() => {}} missing={[]} />);
    expect(none).not.toContain('role="alert"');
    expect(attr(none, 'input', 'lang')).toBe('az');

    const missing = html(<LocalizedFields fields={fields} values={values} onChange={() => {}} missing={['tr', 'en']} />);
    expect(missing).toContain('Fill in the required texts in: Türkçe, English.');
    expect(attr(missing, 'input', 'lang')).toBe('tr');
    expect(attr(missing, 'input', 'aria-invalid')).toBe('true');
    expect(missing).toContain('Required.');
  });
});
