import { z } from 'zod';
import { DEFAULT_LANGUAGE, isLanguage, type Language } from '../i18n';

/**
 * The query of the public reads answered per language (`?lang=`): a missing or unknown language
 * is the default one (docs/rules.md#languages). Strict: any other parameter is refused.
 */
export const languageQuerySchema = z.strictObject({
  lang: z
    .string()
    .optional()
    .transform((value): Language => (isLanguage(value) ? value : DEFAULT_LANGUAGE)),
});
