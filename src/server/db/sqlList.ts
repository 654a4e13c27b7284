import { sql, type SQL } from 'drizzle-orm';

/**
 * A constant list of words as SQL text — `'a', 'b'` — for partial-index conditions in the schema,
 * which drizzle-kit writes into migrations verbatim (no parameters there). Only for the schema's
 * own constants (status names), never for input.
 */
export const sqlList = (words: readonly string[]): SQL => sql.raw(words.map((w) => `'${w.replace(/'/g, "''")}'`).join(', '));
