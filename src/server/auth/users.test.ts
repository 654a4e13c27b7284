import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client';
import { userRoles } from '../db/schema';
import { createTestDatabase } from '../testing/db';
import { createCustomer } from '../testing/users';
import { addRole, removeRole } from './users';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

const rolesOf = async (userId: string) => (await database.db.select().from(userRoles).where(eq(userRoles.userId, userId))).map((r) => r.role).sort();
const inTx = (fn: Parameters<Database['db']['transaction']>[0]) => database.db.transaction(fn);

describe('roles', () => {
  it('adds a role once (ROLE_EXISTS the second time), removes it once (NOT_FOUND the second time), and refuses unknown users', async () => {
    const { id } = await createCustomer(database.db);
    await inTx((tx) => addRole(tx, id, 'moderator'));
    expect(await rolesOf(id)).toEqual(['moderator', 'user']);
    await expect(inTx((tx) => addRole(tx, id, 'moderator'))).rejects.toMatchObject({ code: 'ROLE_EXISTS' });
    await inTx((tx) => removeRole(tx, id, 'moderator'));
    expect(await rolesOf(id)).toEqual(['user']);
    await expect(inTx((tx) => removeRole(tx, id, 'moderator'))).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(inTx((tx) => addRole(tx, 'no-such-user', 'admin'))).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('never takes the admin role from the last admin', async () => {
    await database.db.delete(userRoles).where(eq(userRoles.role, 'admin'));
    const a = await createCustomer(database.db);
    const b = await createCustomer(database.db);
    await inTx((tx) => addRole(tx, a.id, 'admin'));
    await inTx((tx) => addRole(tx, b.id, 'admin'));
    await inTx((tx) => removeRole(tx, a.id, 'admin'));
    await expect(inTx((tx) => removeRole(tx, b.id, 'admin'))).rejects.toMatchObject({ code: 'LAST_ADMIN' });
    expect(await database.db.select().from(userRoles).where(and(eq(userRoles.userId, b.id), eq(userRoles.role, 'admin')))).toHaveLength(1);
  });
});
