import type { OrderNote } from '../../core/orderNotes';
import type { TFunction } from '../i18n';

/**
 * An order's note in the reader's language (docs/rules.md#statuses): the code's text from the
 * `order-notes` namespace (every page that shows notes lists it in its `ns`), then the provider's
 * message as it sent it. A note written before notes were codes (`other`) is its old text.
 */
export function orderNoteText(t: TFunction, note: OrderNote | null | undefined): string {
  if (!note) return '';
  if (note.code === 'other') return note.message ?? '';
  const text = t(`order-notes:${note.code}`);
  return note.message ? t('order-notes:withMessage', { text, message: note.message }) : text;
}
