import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth';

/**
 * Customer groups (docs/rules.md#discounts): a name and the discount its customers' prices take,
 * in hundredths of a percent (`discount_bp`: 1000 is 10 %), 0 to 9000. Names are unique whatever
 * their letter case.
 */
export const customerGroups = pgTable(
  'customer_groups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    discountBp: integer('discount_bp').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('customer_groups_name_unique').on(sql`lower(${t.name})`),
    check('customer_groups_discount_bounds', sql`${t.discountBp} between 0 and 9000`),
  ],
);

/**
 * A customer's pricing: their own discount in hundredths of a percent (null: not set, their
 * group's counts; 0: none, whatever their group's) and their group (at most one; a deleted group
 * leaves its customers in none). No row: no own discount and no group.
 */
export const customerDiscounts = pgTable(
  'customer_discounts',
  {
    userId: text('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    discountBp: integer('discount_bp'),
    groupId: uuid('group_id').references(() => customerGroups.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('customer_discounts_bounds', sql`${t.discountBp} between 0 and 9000`), index('customer_discounts_group_idx').on(t.groupId)],
);
