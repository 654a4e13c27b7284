import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Site settings as key/value rows (docs/rules.md#settings); `src/core/settings.ts` parses them. */
export const adminSettings = pgTable('admin_settings', {
  key: text('setting_key').primaryKey(),
  value: text('setting_value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
