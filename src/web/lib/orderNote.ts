import type { OrderNote } from '../../core/orderNotes';
import type { TFunction } from '../i18n';

/**
 * An order's note in the reader's language (docs/rules.md#statuses): the code's text from the
 * page's `orderNotes` texts, then the provider's message as it sent it. A note written before
 * notes were codes (`other`) is its old text.
 */
export function orderNoteText(t: TFunction, note: OrderNote | null | undefined): string {
  if (!note) return '';
  if (note.code === 'other') return note.message ?? '';
  const text = t(`orderNotes.${note.code}`);
  return note.message ? t('orderNotes.withMessage', { text, message: note.message }) : text;
}
