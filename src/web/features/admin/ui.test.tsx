import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { I18n, I18nProvider } from '../../i18n';
import admin from '../../i18n/locales/en/admin.json';
import common from '../../i18n/locales/en/common.json';
import { EditDeleteCell, QueryView } from './ui';

const html = (node: ReactNode) => renderToStaticMarkup(<I18nProvider i18n={new I18n('en', { en: { admin, common } })}>{node}</I18nProvider>);

describe('admin building blocks', () => {
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
});
